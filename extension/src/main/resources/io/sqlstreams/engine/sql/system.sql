-- The installation as a whole: what system get reports, and what system destroy removes.

-- name: system_state
SELECT s.id, s.created_at,
       (SELECT count(*) FROM {schema}.stream_config) AS streams,
       (SELECT count(*) FROM {schema}.worker_instance WHERE expires_at > now()) AS live_instances
FROM {schema}.system_config s
ORDER BY s.id
LIMIT 1

-- name: live_instance_count
SELECT count(*) AS live_instances FROM {schema}.worker_instance WHERE expires_at > now()

-- name: stream_ids
SELECT id FROM {schema}.stream_config ORDER BY id

-- name: user_stream_count
-- Streams other than the library's own (named under __system.).
SELECT count(*) AS streams FROM {schema}.stream_config WHERE name NOT LIKE '\_\_system.%'

-- name: drop_control_plane
DROP TABLE IF EXISTS {schema}.consumer_group_action_log, {schema}.schedule_cursor, {schema}.schedule_config,
    {schema}.worker_instance_log, {schema}.worker_instance, {schema}.worker_config_log, {schema}.worker_config,
    {schema}.consumer_group_config, {schema}.stream_config_log, {schema}.stream_config, {schema}.migration_log,
    {schema}.system_config CASCADE

-- name: schema_holds_other_objects
SELECT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = to_regnamespace(:schema_name))
    OR EXISTS (SELECT 1 FROM pg_proc WHERE pronamespace = to_regnamespace(:schema_name))
    OR EXISTS (SELECT 1 FROM pg_type WHERE typnamespace = to_regnamespace(:schema_name)) AS present

-- name: drop_schema
DROP SCHEMA {schema} RESTRICT
