-- Consumer groups: declaration, lookup, workers, bindings, destroy and inspection.

-- name: insert_group
INSERT INTO {schema}.consumer_group_config (stream_id, name) VALUES (:stream_id, :name)
ON CONFLICT (stream_id, name) DO NOTHING
RETURNING id

-- name: lock_group
SELECT id FROM {schema}.consumer_group_config WHERE stream_id = :stream_id AND name = :name FOR UPDATE

-- name: insert_cursor_at_beginning
INSERT INTO {schema}.consumer_group_cursor_{id} (consumer_group_id) VALUES (:consumer_group_id)

-- name: insert_cursor_at_head
INSERT INTO {schema}.consumer_group_cursor_{id} (consumer_group_id, claimed, committed, settled_head, pending_head)
SELECT :consumer_group_id, head, head, head, head
FROM (SELECT coalesce(max(id), 0) AS head FROM {schema}.message_log_{id}) visible
RETURNING committed

-- name: group_by_name
SELECT g.id, s.name AS stream_name, g.name, g.created_at, g.updated_at
FROM {schema}.consumer_group_config g JOIN {schema}.stream_config s ON s.id = g.stream_id
WHERE s.name = :stream_name AND g.name = :name

-- name: group_worker_metadata
SELECT id, metadata::text AS metadata FROM {schema}.worker_config
WHERE consumer_group_id = :consumer_group_id AND name = :name

-- name: insert_group_worker
INSERT INTO {schema}.worker_config (consumer_group_id, name, metadata, target_instances)
VALUES (:consumer_group_id, :name, :metadata::jsonb, :target_instances)
RETURNING id

-- name: group_workers
SELECT w.id, w.name, w.metadata::text AS metadata, w.target_instances,
       (SELECT count(*) FROM {schema}.worker_instance i WHERE i.worker_id = w.id AND i.expires_at > now())
           AS live_instances,
       w.created_at, w.updated_at
FROM {schema}.worker_config w
WHERE w.consumer_group_id = :consumer_group_id
ORDER BY w.name

-- name: group_has_deliveries
SELECT EXISTS (SELECT 1 FROM {schema}.exception_queue_{id} WHERE consumer_group_id = :consumer_group_id)
           AS has_deliveries

-- name: delete_group_deliveries
WITH exceptions AS (DELETE FROM {schema}.exception_queue_{id} WHERE consumer_group_id = :consumer_group_id),
     audit AS (DELETE FROM {schema}.delivery_log_{id} WHERE consumer_group_id = :consumer_group_id),
     ranges AS (DELETE FROM {schema}.claim_lease_{id} WHERE consumer_group_id = :consumer_group_id),
     keys AS (DELETE FROM {schema}.message_key_lease_{id} WHERE consumer_group_id = :consumer_group_id)
DELETE FROM {schema}.consumer_group_config WHERE id = :consumer_group_id

-- name: inspect_group
SELECT (SELECT coalesce(max(id), 0) FROM {schema}.message_log_{id}) AS head, c.claimed, c.committed,
       (SELECT count(*) FROM {schema}.claim_lease_{id} l WHERE l.consumer_group_id = c.consumer_group_id)
           AS open_leases
FROM {schema}.consumer_group_cursor_{id} c
WHERE c.consumer_group_id = :consumer_group_id

-- name: exception_counts
SELECT status, count(*) AS row_count FROM {schema}.exception_queue_{id}
WHERE consumer_group_id = :consumer_group_id
GROUP BY status

-- name: lock_group_by_id
SELECT id FROM {schema}.consumer_group_config WHERE id = :consumer_group_id FOR UPDATE

-- name: installed_binding_set
SELECT patterns FROM {schema}.binding_config_log_{id}
WHERE consumer_group_id = :consumer_group_id AND status = 'installed'
ORDER BY id DESC
LIMIT 1

-- name: group_live_instances_except
-- The consuming sessions' rows only: a session's cursor_advancer claim (racing its own binding declaration) never
-- counts, and a session that holds one holds its message_consumer and exception_consumer rows too.
SELECT count(*) AS live_instances
FROM {schema}.worker_instance i JOIN {schema}.worker_config w ON w.id = i.worker_id
WHERE w.consumer_group_id = :consumer_group_id AND i.expires_at > now()
  AND w.name IN ('message_consumer', 'exception_consumer')
  AND i.id <> ALL (:except_instances::bigint[])

-- name: log_binding_attempt
INSERT INTO {schema}.binding_config_log_{id} (consumer_group_id, status, patterns, declared_by, declared_at)
VALUES (:consumer_group_id, :status, :patterns::text[], :declared_by, :declared_at)

-- name: replace_bindings
WITH cleared AS (DELETE FROM {schema}.binding_config_{id} WHERE consumer_group_id = :consumer_group_id)
INSERT INTO {schema}.binding_config_{id} (consumer_group_id, pattern, pattern_regex)
SELECT :consumer_group_id, pattern, regex
FROM unnest(:patterns::text[], :pattern_regexes::text[]) AS declared (pattern, regex)

-- name: effective_binding
SELECT l.status, l.patterns, l.declared_by, l.declared_at, l.attempted_at
FROM {schema}.binding_config_log_{id} l
WHERE l.consumer_group_id = :consumer_group_id AND l.status = 'installed'
ORDER BY l.id DESC
LIMIT 1

-- name: bindings_of_stream
-- Every group's effective binding set (groups reading the whole stream left out), plus each declarer's newest
-- waiting set that is still blocked (declared after the group's newest install).
WITH installed AS (
    SELECT DISTINCT ON (consumer_group_id) *
    FROM {schema}.binding_config_log_{id}
    WHERE status = 'installed'
    ORDER BY consumer_group_id, id DESC
),
waiting AS (
    SELECT DISTINCT ON (l.consumer_group_id, l.declared_by) l.*
    FROM {schema}.binding_config_log_{id} l
    WHERE l.status = 'waiting'
      AND l.id > coalesce((SELECT i.id FROM installed i WHERE i.consumer_group_id = l.consumer_group_id), 0)
    ORDER BY l.consumer_group_id, l.declared_by, l.id DESC
)
SELECT g.name AS consumer_group, b.status, b.patterns, b.declared_by, b.declared_at, b.attempted_at
FROM (SELECT * FROM installed WHERE cardinality(patterns) > 0 UNION ALL SELECT * FROM waiting) b
JOIN {schema}.consumer_group_config g ON g.id = b.consumer_group_id
ORDER BY g.name, b.status, b.id
