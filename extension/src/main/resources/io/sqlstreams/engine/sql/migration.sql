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
-- A scope's versions are its newest successful step's: a step down records the lower version it reached.
SELECT coalesce(max(version), 0) AS version, coalesce(max(min_compatible_version), 0) AS min_compatible_version
FROM (SELECT version, min_compatible_version FROM {schema}.migration_log
      WHERE system_id IS NOT NULL AND status = 'success' ORDER BY id DESC LIMIT 1) newest

-- name: stream_versions
SELECT coalesce(max(version), 0) AS version, coalesce(max(min_compatible_version), 0) AS min_compatible_version
FROM (SELECT version, min_compatible_version FROM {schema}.migration_log
      WHERE stream_id = :stream_id AND status = 'success' ORDER BY id DESC LIMIT 1) newest

-- name: record_system_migration
INSERT INTO {schema}.migration_log (system_id, version, min_compatible_version, status, error)
VALUES (:system_id, :version, :min_compatible_version, :status, :error)

-- name: record_stream_migration
INSERT INTO {schema}.migration_log (stream_id, version, min_compatible_version, status, error)
VALUES (:stream_id, :version, :min_compatible_version, :status, :error)

-- name: schema_exists
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = :schema_name) AS present

-- name: recorded_stream_versions
SELECT s.id, s.name, coalesce(m.version, 0) AS version,
       coalesce(m.min_compatible_version, 0) AS min_compatible_version
FROM {schema}.stream_config s
LEFT JOIN LATERAL (SELECT version, min_compatible_version FROM {schema}.migration_log
                   WHERE stream_id = s.id AND status = 'success' ORDER BY id DESC LIMIT 1) m ON true
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

-- name: table_lock_holder
-- A session other than this one holding a lock on the table or one of its partitions: the one a migration step's
-- DDL waited for. The table is named by value, never spliced. It is listed on its own because pg_partition_tree
-- lists nothing for a table that is not partitioned (the shared tables).
SELECT a.pid, a.application_name, a.client_addr::text AS client_addr, a.xact_start
FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'relation' AND l.granted AND l.pid <> pg_backend_pid()
  AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())
  AND l.relation IN (
      SELECT to_regclass(quote_ident(:schema_name) || '.' || quote_ident(:table_name))
      UNION
      SELECT relid FROM pg_catalog.pg_partition_tree(
          to_regclass(quote_ident(:schema_name) || '.' || quote_ident(:table_name))))
ORDER BY a.xact_start
LIMIT 1
