-- The stream janitor's pass (io.sqlstreams.engine.query.JanitorQueries): retention of one stream's log, and the
-- sweeps of its idempotency claims, head-less compaction rows and expired key leases. Every sweep deletes in
-- batches from the oldest end and skips rows another transaction holds.

-- name: limit_statement_time
SELECT set_config('statement_timeout', :statement_timeout, true) AS statement_timeout

-- name: log_partitions
-- The partitions of the stream's log by number (message_log_<id>_<n>), in order.
SELECT substring(c.relname FROM '_([0-9]+)$')::bigint AS partition
FROM pg_inherits i
JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = '{schema}.message_log_{id}'::regclass
ORDER BY 1

-- name: newest_message_id
SELECT max(id) AS newest_id FROM {schema}.message_log_{id}

-- name: committed_floor
-- The slowest group's committed cursor; NULL when the stream has no groups.
SELECT min(committed) AS committed_floor FROM {schema}.consumer_group_cursor_{id}

-- name: hold_partition
-- Waits for producers still inserting into the partition and keeps new ones out until the transaction ends;
-- readers are not blocked.
LOCK TABLE {schema}.message_log_{id}_{partition} IN SHARE MODE

-- name: partition_past_retention
-- Whether the partition holds no row younger than the given age: its newest row (by id) was created at least that
-- long ago, or it holds none (ids drawn by transactions that rolled back or failed, rows swept away).
SELECT coalesce((SELECT created_at <= now() - :age_micros * interval '1 microsecond'
                 FROM {schema}.message_log_{id}
                 WHERE id >= :low AND id < :high
                 ORDER BY id DESC
                 LIMIT 1), true) AS expired

-- name: delete_partition_dependents
-- The exception, delivery-log and compaction-head rows of messages in ids [low, high).
WITH exceptions AS (
    DELETE FROM {schema}.exception_queue_{id} WHERE message_id >= :low AND message_id < :high
), deliveries AS (
    DELETE FROM {schema}.delivery_log_{id} WHERE message_id >= :low AND message_id < :high
)
DELETE FROM {schema}.compaction_head_{id} WHERE message_id >= :low AND message_id < :high

-- name: drop_partition
DROP TABLE {schema}.message_log_{id}_{partition}

-- name: sweep_expired_messages
-- Up to :batch_size of the oldest messages of ids [low, high) older than the age and, when a floor is given, at
-- or below it; with their exception, delivery-log and compaction-head rows.
WITH doomed AS (
    SELECT id FROM {schema}.message_log_{id}
    WHERE id >= :low AND id < :high
      AND created_at < now() - :age_micros * interval '1 microsecond'
      AND (CAST(:committed_floor AS bigint) IS NULL OR id <= CAST(:committed_floor AS bigint))
    ORDER BY id
    LIMIT :batch_size
    FOR UPDATE SKIP LOCKED
), messages AS (
    DELETE FROM {schema}.message_log_{id} m USING doomed WHERE m.id = doomed.id RETURNING m.id
), exceptions AS (
    DELETE FROM {schema}.exception_queue_{id} e USING messages WHERE e.message_id = messages.id
), deliveries AS (
    DELETE FROM {schema}.delivery_log_{id} d USING messages WHERE d.message_id = messages.id
), heads AS (
    DELETE FROM {schema}.compaction_head_{id} h USING messages WHERE h.message_id = messages.id
)
SELECT count(*) AS removed FROM messages

-- name: sweep_expired_idempotency_keys
WITH doomed AS (
    SELECT idempotency_key FROM {schema}.idempotency_key_{id}
    WHERE created_at < now() - :age_micros * interval '1 microsecond'
    ORDER BY created_at
    LIMIT :batch_size
    FOR UPDATE SKIP LOCKED
), removed AS (
    DELETE FROM {schema}.idempotency_key_{id} k USING doomed WHERE k.idempotency_key = doomed.idempotency_key
    RETURNING 1
)
SELECT count(*) AS removed FROM removed

-- name: sweep_empty_compaction_heads
-- Head-less rows (left by lockCompactionHead) idle for the age; a row that points at a head is never swept.
WITH doomed AS (
    SELECT compaction_key FROM {schema}.compaction_head_{id}
    WHERE message_id IS NULL AND updated_at < now() - :age_micros * interval '1 microsecond'
    ORDER BY updated_at, compaction_key
    LIMIT :batch_size
    FOR UPDATE SKIP LOCKED
), removed AS (
    DELETE FROM {schema}.compaction_head_{id} h USING doomed
    WHERE h.compaction_key = doomed.compaction_key AND h.message_id IS NULL
    RETURNING 1
)
SELECT count(*) AS removed FROM removed

-- name: sweep_expired_key_leases
WITH doomed AS (
    SELECT consumer_group_id, message_key FROM {schema}.message_key_lease_{id}
    WHERE expires_at < now()
    ORDER BY expires_at
    LIMIT :batch_size
    FOR UPDATE SKIP LOCKED
), removed AS (
    DELETE FROM {schema}.message_key_lease_{id} l USING doomed
    WHERE l.consumer_group_id = doomed.consumer_group_id AND l.message_key = doomed.message_key
      AND l.expires_at < now()
    RETURNING 1
)
SELECT count(*) AS removed FROM removed

-- name: vacuum_idempotency_keys
VACUUM (ANALYZE) {schema}.idempotency_key_{id}
