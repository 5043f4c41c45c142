-- Evidence and records of the built-in alerts (digest §7.6). Samples are retained measurements on
-- __system.metrics; alerts are retained messages on __system.alerts, message key "<alert>@<owner>", routing key
-- the owner.

-- name: alert_clock
-- The database's time of an evaluation, and half the lock ceiling PostgreSQL reports: the default threshold of
-- partition_count, since dropping or destroying a stream takes a lock per partition.
SELECT now() AS evaluated_at,
       current_setting('max_locks_per_transaction')::bigint
           * (current_setting('max_connections')::bigint + current_setting('max_prepared_transactions')::bigint)
           / 2 AS half_lock_ceiling

-- name: evidence_samples
-- One series' retained measurements stored since :since, newest first by stored time, ties by message id.
SELECT id, created_at, payload::text AS payload
FROM {schema}.message_log_{id}
WHERE message_key = :message_key AND created_at >= :since
ORDER BY created_at DESC, id DESC

-- name: owner_alert_heads
-- The newest report of each alert of one owner.
SELECT m.id, m.created_at, m.routing_key, m.message_key, m.compaction_rank, m.schema_version,
       m.payload::text AS payload, m.headers::text AS headers
FROM {schema}.compaction_head_{id} h
JOIN {schema}.message_log_{id} m ON m.id = h.message_id
WHERE m.routing_key = :owner
ORDER BY m.message_key

-- name: alert_heads_by_status
-- How many alerts' newest reports are active and how many resolved.
SELECT count(*) FILTER (WHERE m.payload->>'status' = 'active') AS active,
       count(*) FILTER (WHERE m.payload->>'status' = 'resolved') AS resolved
FROM {schema}.compaction_head_{id} h
JOIN {schema}.message_log_{id} m ON m.id = h.message_id

-- name: manager_leases
-- Every lease of one of the system's workers (the manager) still on record, live or logged, oldest first: when its instance was
-- created and the latest expiry any renewal gave it.
SELECT l.created_at AS held_from, max(l.expires_at) AS held_until
FROM {schema}.worker_config w
CROSS JOIN LATERAL (
    SELECT i.id AS instance_id, i.created_at, i.expires_at FROM {schema}.worker_instance i WHERE i.worker_id = w.id
    UNION ALL
    SELECT g.worker_instance_id, g.created_at, g.expires_at FROM {schema}.worker_instance_log g
    WHERE g.worker_id = w.id
) l
WHERE w.system_id IS NOT NULL AND w.name = :worker_name
GROUP BY l.instance_id, l.created_at
ORDER BY held_from
