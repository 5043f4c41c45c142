-- Migration bookkeeping: the advisory lock that serialises migrations and the migration_log trail.

-- name: lock_migrations
SELECT pg_advisory_lock(hashtextextended(:lock_key, 0))

-- name: unlock_migrations
SELECT pg_advisory_unlock(hashtextextended(:lock_key, 0))

-- name: migration_log_exists
SELECT to_regclass(:schema_name || '.migration_log') IS NOT NULL AS present

-- name: system_id
SELECT id FROM {schema}.system_config ORDER BY id LIMIT 1

-- name: insert_system
INSERT INTO {schema}.system_config DEFAULT VALUES RETURNING id

-- name: system_versions
SELECT coalesce(max(version), 0) AS version, coalesce(max(min_compatible_version), 0) AS min_compatible_version
FROM {schema}.migration_log
WHERE system_id IS NOT NULL AND status = 'success'

-- name: stream_versions
SELECT coalesce(max(version), 0) AS version, coalesce(max(min_compatible_version), 0) AS min_compatible_version
FROM {schema}.migration_log
WHERE stream_id = :stream_id AND status = 'success'

-- name: record_system_migration
INSERT INTO {schema}.migration_log (system_id, version, min_compatible_version, status, error)
VALUES (:system_id, :version, :min_compatible_version, :status, :error)

-- name: record_stream_migration
INSERT INTO {schema}.migration_log (stream_id, version, min_compatible_version, status, error)
VALUES (:stream_id, :version, :min_compatible_version, :status, :error)

-- name: schema_exists
SELECT to_regnamespace(:schema_name) IS NOT NULL AS present

-- name: recorded_stream_versions
SELECT s.name, coalesce(max(m.version), 0) AS version,
       coalesce(max(m.min_compatible_version), 0) AS min_compatible_version
FROM {schema}.stream_config s
LEFT JOIN {schema}.migration_log m ON m.stream_id = s.id AND m.status = 'success'
GROUP BY s.name
ORDER BY s.name
