-- Migration bookkeeping: the advisory lock that serialises migrations and the migration_log trail.

-- name: lock_migrations
-- Held until the transaction ends: a session lock would outlive its transaction on a server process that a
-- transaction-mode pooler then hands to other clients.
SELECT pg_advisory_xact_lock(hashtextextended(:lock_key, 0))

-- name: migration_log_exists
-- Read from the catalog with the statement's snapshot, not by name lookup (to_regclass): a lookup that found nothing
-- before the lock was taken is remembered by the server process, so inside the transaction that waited for the
-- lock it would still find nothing after another process created the table.
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = :schema_name AND c.relname = 'migration_log') AS present

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
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = :schema_name) AS present

-- name: recorded_stream_versions
SELECT s.name, coalesce(max(m.version), 0) AS version,
       coalesce(max(m.min_compatible_version), 0) AS min_compatible_version
FROM {schema}.stream_config s
LEFT JOIN {schema}.migration_log m ON m.stream_id = s.id AND m.status = 'success'
GROUP BY s.name
ORDER BY s.name

-- name: try_lock_migrations
-- lock_migrations for a run that refuses rather than waits: false while another transaction holds the lock.
SELECT pg_try_advisory_xact_lock(hashtextextended(:lock_key, 0)) AS locked

-- name: migration_lock_holder
-- The session holding lock_migrations: PostgreSQL keeps a bigint advisory key as its high half in classid and its
-- low half in objid, with objsubid 1.
SELECT a.pid, a.application_name, a.client_addr::text AS client_addr, a.xact_start
FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
  AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(:lock_key, 0)
LIMIT 1
