-- Schedules (digest §7.4): the declaration on schedule_config, the next and newest due times on schedule_cursor.

-- name: insert_schedule
-- A new schedule, or nothing when the name is taken (then lock_schedule reads the stored one).
INSERT INTO {schema}.schedule_config (system_id, stream_id, name, expression, schema_version, payload, concurrency,
                                      timeout_ns, metadata)
VALUES (:system_id, :stream_id, :name, :expression, :schema_version, :payload::jsonb, :concurrency, :timeout_ns,
        :metadata::jsonb)
ON CONFLICT (name) DO NOTHING
RETURNING id

-- name: lock_schedule
-- The stored declaration, locked until the transaction ends, with whether its payload and metadata equal the
-- ones given (compared as JSON values, so spacing and key order do not count).
SELECT c.id, s.name AS stream, c.expression, c.schema_version, c.payload::text AS payload, c.concurrency,
       c.timeout_ns, c.metadata::text AS metadata, c.suspended,
       c.payload = :payload::jsonb AS same_payload, c.metadata = :metadata::jsonb AS same_metadata
FROM {schema}.schedule_config c
JOIN {schema}.stream_config s ON s.id = c.stream_id
WHERE c.name = :name
FOR UPDATE OF c

-- name: update_schedule
UPDATE {schema}.schedule_config
SET stream_id = :stream_id, expression = :expression, schema_version = :schema_version, payload = :payload::jsonb,
    concurrency = :concurrency, timeout_ns = :timeout_ns, metadata = :metadata::jsonb, updated_at = now()
WHERE id = :id

-- name: database_now
SELECT now() AS now

-- name: seed_schedule_cursor
-- The next due time of a new schedule, of one whose expression changed, or of one that is unsuspended.
INSERT INTO {schema}.schedule_cursor (schedule_id, next_scheduled_at)
VALUES (:schedule_id, :next_scheduled_at)
ON CONFLICT (schedule_id) DO UPDATE SET next_scheduled_at = EXCLUDED.next_scheduled_at

-- fragment: stored_schedules
-- Every schedule as get and list report it: its declaration, its stream's name and its cursor.
SELECT c.name, s.name AS stream, c.expression, c.suspended, c.schema_version, c.payload::text AS payload,
       c.concurrency, c.timeout_ns, c.metadata::text AS metadata, k.next_scheduled_at, k.last_scheduled_at,
       c.created_at, c.updated_at
FROM {schema}.schedule_config c
JOIN {schema}.stream_config s ON s.id = c.stream_id
JOIN {schema}.schedule_cursor k ON k.schedule_id = c.id

-- name: schedule_by_name
{fragment:stored_schedules}
WHERE c.name = :name

-- name: all_schedules
{fragment:stored_schedules}
ORDER BY c.name COLLATE "C"

-- name: lock_schedule_state
SELECT id, expression, suspended FROM {schema}.schedule_config WHERE name = :name FOR UPDATE

-- name: set_schedule_suspended
UPDATE {schema}.schedule_config SET suspended = :suspended, updated_at = now() WHERE id = :id

-- name: delete_schedule
DELETE FROM {schema}.schedule_config WHERE name = :name RETURNING id

-- name: next_due_schedule
-- One schedule whose due time has come by the database's clock, not suspended, locked (with its cursor) until the
-- transaction ends; one another producer holds is skipped, so two producers never produce the same due time, and so
-- are those whose produce failed earlier in this pass.
SELECT c.id, c.name, c.stream_id, c.expression, c.schema_version, c.payload::text AS payload, c.concurrency,
       c.timeout_ns, k.next_scheduled_at, now() AS now
FROM {schema}.schedule_cursor k
JOIN {schema}.schedule_config c ON c.id = k.schedule_id
WHERE NOT c.suspended AND k.next_scheduled_at <= now() AND NOT (c.id = ANY (:skipped::bigint[]))
ORDER BY k.next_scheduled_at, c.id
LIMIT 1
FOR UPDATE OF c, k SKIP LOCKED

-- name: advance_schedule_cursor
UPDATE {schema}.schedule_cursor SET last_scheduled_at = :last_scheduled_at, next_scheduled_at = :next_scheduled_at
WHERE schedule_id = :schedule_id

-- name: lock_schedule_for_run
SELECT c.id, c.stream_id, c.schema_version, c.payload::text AS payload, c.timeout_ns, now() AS now
FROM {schema}.schedule_config c
WHERE c.name = :name
FOR SHARE

-- name: schedule_target
SELECT c.id, c.stream_id FROM {schema}.schedule_config c WHERE c.name = :name

-- fragment: scheduled_outcomes
-- Each message of the CTE "wanted" (id, created_at, scheduled_at) in every consumer group of the stream: whether it
-- ran (a success or failure logged), its failed attempts, and its outcome: succeeded or superseded as the delivery
-- log says; failed (dead or discarded), deferred or pending while an exception row holds it; pending while the group's committed
-- cursor is before it; else, passed without any log row, superseded when it is not its key's compaction head and
-- the stream logs successes (the claim skips a replaced message without a trace), succeeded otherwise.
outcomes AS (
    SELECT w.id, w.created_at, w.scheduled_at, g.name AS consumer_group, coalesce(log.ran, false) AS ran,
           coalesce(log.failures, 0) AS failures,
           CASE
               WHEN log.succeeded THEN 'succeeded'
               WHEN log.superseded THEN 'superseded'
               WHEN q.status IN ('dead', 'discarded') THEN 'failed'
               WHEN q.status = 'deferred' THEN 'deferred'
               WHEN q.status IS NOT NULL OR w.id > k.committed THEN 'pending'
               WHEN :logs_successes AND log.ran IS NULL
                    AND NOT EXISTS (SELECT 1 FROM {schema}.compaction_head_{id} h WHERE h.message_id = w.id)
                   THEN 'superseded'
               ELSE 'succeeded'
           END AS outcome
    FROM wanted w
    JOIN {schema}.consumer_group_config g ON g.stream_id = :stream_id
    JOIN {schema}.consumer_group_cursor_{id} k ON k.consumer_group_id = g.id
    LEFT JOIN {schema}.exception_queue_{id} q ON q.consumer_group_id = g.id AND q.message_id = w.id
    LEFT JOIN LATERAL (SELECT bool_or(d.status = 'success') AS succeeded, bool_or(d.status = 'superseded') AS superseded,
                              bool_or(d.status IN ('success', 'failure')) AS ran,
                              count(*) FILTER (WHERE d.status = 'failure') AS failures
                       FROM {schema}.delivery_log_{id} d
                       WHERE d.consumer_group_id = g.id AND d.message_id = w.id) log ON true
)

-- name: schedule_group_status
-- For every consumer group of the stream, the schedule's messages (its name is their key): how many ran, succeeded,
-- failed attempts, and were superseded.
WITH wanted AS (
    SELECT id, created_at, NULL::text AS scheduled_at FROM {schema}.message_log_{id} WHERE message_key = :name
),
{fragment:scheduled_outcomes}
SELECT g.name AS consumer_group,
       count(o.id) FILTER (WHERE o.ran OR o.outcome IN ('succeeded', 'failed')) AS ran,
       count(o.id) FILTER (WHERE o.outcome = 'succeeded') AS succeeded,
       coalesce(sum(o.failures), 0) AS failed,
       count(o.id) FILTER (WHERE o.outcome = 'superseded') AS superseded
FROM {schema}.consumer_group_config g
LEFT JOIN outcomes o ON o.consumer_group = g.name
WHERE g.stream_id = :stream_id
GROUP BY g.name
ORDER BY g.name COLLATE "C"

-- name: schedule_messages
-- The schedule's newest messages, each with its outcome in every consumer group (scheduled_outcomes), and the
-- message of the schedule that came next, which is what supersedes it. A stream without groups gives one row per
-- message, its group null.
WITH wanted AS (
    SELECT id, created_at, options ->> 'scheduled_at' AS scheduled_at
    FROM {schema}.message_log_{id}
    WHERE message_key = :name
    ORDER BY id DESC
    LIMIT :row_limit
),
{fragment:scheduled_outcomes}
SELECT w.id, w.created_at, w.scheduled_at, o.consumer_group, o.outcome,
       next.id AS next_id, next.created_at AS next_created_at
FROM wanted w
LEFT JOIN outcomes o ON o.id = w.id
LEFT JOIN LATERAL (SELECT n.id, n.created_at FROM {schema}.message_log_{id} n
                   WHERE n.message_key = :name AND n.id > w.id ORDER BY n.id LIMIT 1) next ON true
ORDER BY w.id DESC, o.consumer_group COLLATE "C"
