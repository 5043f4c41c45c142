-- Live readings behind the built-in metrics (digest §7.5), each taken in one statement with the database's clock.

-- name: group_gauges
-- Every consumer group of the stream: the stream's head, the group's cursors, open range leases and its
-- exception rows by status (delayed rows count as ready); the age of the oldest unresolved row, 0 when none; and
-- the live instances of its message consumer worker, one per running session.
SELECT g.name AS group_name, now() AS observed_at, log_head.head, c.claimed, c.committed,
       (SELECT count(*) FROM {schema}.claim_lease_{id} l WHERE l.consumer_group_id = g.id) AS open_leases,
       (SELECT count(*) FROM {schema}.worker_config w JOIN {schema}.worker_instance i ON i.worker_id = w.id
        WHERE w.consumer_group_id = g.id AND w.name = 'message_consumer' AND i.expires_at > now())
           AS live_instances,
       e.ready, e.inflight, e.deferred, e.dead,
       coalesce((extract(epoch FROM now() - e.oldest_unresolved) * 1000)::bigint, 0) AS oldest_unresolved_ms
FROM {schema}.consumer_group_config g
JOIN {schema}.consumer_group_cursor_{id} c ON c.consumer_group_id = g.id
CROSS JOIN (SELECT coalesce(max(id), 0) AS head FROM {schema}.message_log_{id}) log_head
CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE q.status = 'ready') AS ready,
           count(*) FILTER (WHERE q.status = 'inflight') AS inflight,
           count(*) FILTER (WHERE q.status = 'deferred') AS deferred,
           count(*) FILTER (WHERE q.status = 'dead') AS dead,
           min(q.created_at) FILTER (WHERE q.status IN ('ready', 'inflight', 'deferred')) AS oldest_unresolved
    FROM {schema}.exception_queue_{id} q WHERE q.consumer_group_id = g.id
) e
WHERE g.stream_id = :stream_id AND (:group_name::text IS NULL OR g.name = :group_name::text)
ORDER BY g.name

-- name: stream_gauges
-- The stream's log partitions, whether a compacted message ever arrived, the workers of the stream and of its
-- groups that want an instance and have no live one: how many, and which (a JSON array of objects naming the
-- worker and, for a group's worker, the group); and how long the oldest open producer that holds back a group's
-- stored observation (its pending_xid, claim.sql) has been open, 0 when none.
SELECT now() AS observed_at,
       (SELECT count(*) FROM pg_inherits i WHERE i.inhparent = '{schema}.message_log_{id}'::regclass) AS partitions,
       EXISTS (SELECT 1 FROM {schema}.compaction_head_{id}) AS compacted,
       unclaimed.workers, unclaimed.names::text AS unclaimed_names,
       (SELECT coalesce(max(h.open_millis), 0)
        FROM ({fragment:open_producer_activity}) h
        WHERE EXISTS (SELECT 1 FROM {schema}.consumer_group_cursor_{id} c
                      WHERE age(h.xid) > age((c.pending_xid::text::bigint % 4294967296)::text::xid)))
           AS fence_held_ms
FROM (SELECT count(*) AS workers,
             coalesce(json_agg(json_strip_nulls(json_build_object('worker', w.name, 'group', g.name))
                               ORDER BY g.name COLLATE "C" NULLS FIRST, w.name COLLATE "C"), '[]'::json) AS names
      FROM {schema}.worker_config w
      LEFT JOIN {schema}.consumer_group_config g ON g.id = w.consumer_group_id
      WHERE (w.stream_id = :stream_id OR g.stream_id = :stream_id)
        AND w.target_instances <> 0
        AND NOT EXISTS (SELECT 1 FROM {schema}.worker_instance i
                        WHERE i.worker_id = w.id AND i.expires_at > now())) AS unclaimed

-- name: system_gauges
-- Across the installation: the workers that want an instance and have none live, how long the longest of them
-- has been without one (since the latest expiry on record of any of its instances, else since it was created;
-- 0 when none), and the workers whose live instances are in a failure streak; then the schedules: those not
-- suspended whose due time passed more than a minute ago (the schedule producer's resolution) without a
-- produce, how far the most overdue one is past its due time (0 when none), and those suspended.
SELECT now() AS observed_at,
       count(*) FILTER (WHERE w.target_instances <> 0 AND live.instances = 0) AS unclaimed_workers,
       coalesce(max((extract(epoch FROM now() - greatest(w.created_at, held.until)) * 1000)::bigint)
                FILTER (WHERE w.target_instances <> 0 AND live.instances = 0), 0) AS oldest_unclaimed_ms,
       count(*) FILTER (WHERE live.attempts > 0) AS failing_workers,
       (SELECT count(*) FROM {schema}.schedule_config c JOIN {schema}.schedule_cursor k ON k.schedule_id = c.id
        WHERE NOT c.suspended AND k.next_scheduled_at < now() - interval '1 minute') AS overdue_schedules,
       (SELECT coalesce(max((extract(epoch FROM now() - k.next_scheduled_at) * 1000)::bigint), 0)
        FROM {schema}.schedule_config c JOIN {schema}.schedule_cursor k ON k.schedule_id = c.id
        WHERE NOT c.suspended AND k.next_scheduled_at < now() - interval '1 minute') AS oldest_due_ms,
       (SELECT count(*) FROM {schema}.schedule_config c WHERE c.suspended) AS suspended_schedules
FROM {schema}.worker_config w
{fragment:worker_liveness}
