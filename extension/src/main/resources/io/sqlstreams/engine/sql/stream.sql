-- Stream rows: declaration, lookup, rename and destroy.

-- fragment: stream_row
SELECT id, name, partition_size, retention_ttl_ns, allow_drop_past_committed, idempotency_key_ttl_ns,
       empty_compaction_head_ttl_ns, delivery_log_mode, fence_warn_after_ns, created_at, updated_at
FROM {schema}.stream_config

-- name: insert_stream
INSERT INTO {schema}.stream_config (system_id, name, partition_size, retention_ttl_ns, allow_drop_past_committed,
                                    idempotency_key_ttl_ns, empty_compaction_head_ttl_ns, delivery_log_mode,
                                    fence_warn_after_ns)
VALUES (:system_id, :name, :partition_size, :retention_ttl_ns, :allow_drop_past_committed, :idempotency_key_ttl_ns,
        :empty_compaction_head_ttl_ns, :delivery_log_mode, :fence_warn_after_ns)
ON CONFLICT (name) DO NOTHING
RETURNING id AS stream_id

-- name: lock_stream_by_name
{fragment:stream_row} WHERE name = :name FOR UPDATE

-- name: stream_by_name
{fragment:stream_row} WHERE name = :name

-- name: stream_by_id
{fragment:stream_row} WHERE id = :stream_id

-- name: all_streams
{fragment:stream_row} ORDER BY name

-- name: update_stream_config
UPDATE {schema}.stream_config
SET retention_ttl_ns = :retention_ttl_ns, allow_drop_past_committed = :allow_drop_past_committed,
    idempotency_key_ttl_ns = :idempotency_key_ttl_ns, empty_compaction_head_ttl_ns = :empty_compaction_head_ttl_ns,
    delivery_log_mode = :delivery_log_mode, fence_warn_after_ns = :fence_warn_after_ns, updated_at = now()
WHERE id = :stream_id

-- name: log_stream_config
INSERT INTO {schema}.stream_config_log (stream_id, name, partition_size, retention_ttl_ns, allow_drop_past_committed,
                                        idempotency_key_ttl_ns, empty_compaction_head_ttl_ns, delivery_log_mode,
                                        fence_warn_after_ns, declared_by)
SELECT id, name, partition_size, retention_ttl_ns, allow_drop_past_committed, idempotency_key_ttl_ns,
       empty_compaction_head_ttl_ns, delivery_log_mode, fence_warn_after_ns, :declared_by
FROM {schema}.stream_config WHERE id = :stream_id

-- name: rename_stream
UPDATE {schema}.stream_config SET name = :new_name, updated_at = now() WHERE name = :name RETURNING id AS stream_id

-- name: stream_has_messages
SELECT EXISTS (SELECT 1 FROM {schema}.message_log_{id}) AS has_messages

-- name: delete_stream
DELETE FROM {schema}.stream_config WHERE id = :stream_id

-- name: consumers_of_stream
SELECT g.id AS group_id, s.name AS stream_name, g.name AS group_name, g.created_at, g.updated_at
FROM {schema}.consumer_group_config g JOIN {schema}.stream_config s ON s.id = g.stream_id
WHERE s.name = :stream_name ORDER BY g.name

-- name: stream_worker_metadata
SELECT id, metadata::text AS metadata FROM {schema}.worker_config WHERE stream_id = :stream_id AND name = :name

-- name: insert_stream_worker
INSERT INTO {schema}.worker_config (stream_id, name, metadata, target_instances)
VALUES (:stream_id, :name, :metadata::jsonb, :target_instances)
RETURNING id

-- name: update_worker_metadata
UPDATE {schema}.worker_config SET metadata = :metadata::jsonb, updated_at = now() WHERE id = :worker_id

-- name: log_worker_config
INSERT INTO {schema}.worker_config_log (worker_id, name, metadata, target_instances, declared_by)
SELECT id, name, metadata, target_instances, :declared_by FROM {schema}.worker_config WHERE id = :worker_id

-- name: set_worker_target
-- Sets the target only when it differs, so an unchanged suspension writes no snapshot: how many rows changed.
UPDATE {schema}.worker_config SET target_instances = :target_instances
WHERE id = :worker_id AND target_instances <> :target_instances

-- fragment: worker_liveness
-- For the worker_config row w: live (its live instances and their highest failure streak) and held (the latest
-- expiry on record of any of its instances, rows and their log, a future expiry of a released row counted as now).
CROSS JOIN LATERAL (
    SELECT count(*)::int AS instances, coalesce(max(i.attempts), 0) AS attempts
    FROM {schema}.worker_instance i WHERE i.worker_id = w.id AND i.expires_at > now()
) live
CROSS JOIN LATERAL (
    SELECT max(least(e.expires_at, now())) AS until FROM (
        SELECT expires_at FROM {schema}.worker_instance WHERE worker_id = w.id
        UNION ALL
        SELECT expires_at FROM {schema}.worker_instance_log WHERE worker_id = w.id
    ) e
) held

-- name: stream_worker_snapshot
-- A stream's worker by name with its live instances, their highest failure streak, and, when none is live, how
-- long it has been unclaimed: since the latest expiry on record of any of its instances (rows and their log, a
-- future expiry of a released row counted as now), else since the worker was created.
SELECT w.name, w.target_instances, live.instances AS live_instances, live.attempts,
       CASE WHEN live.instances > 0 THEN NULL
            ELSE (extract(epoch FROM now() - greatest(w.created_at, held.until)) * 1000000)::bigint
       END AS unclaimed_micros
FROM {schema}.worker_config w
{fragment:worker_liveness}
WHERE w.stream_id = :stream_id AND w.name = :name
