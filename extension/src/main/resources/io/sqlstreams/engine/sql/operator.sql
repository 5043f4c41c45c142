-- Operator verbs on a consumer group: its dead letters (list, count, group by error, redrive, discard), its blocked
-- ordered keys, and its audit trail of operator actions, whose newest pause or resume is also whether it is paused.

-- fragment: dead_letter_filter
-- The dead rows of the group that a DeadLetterFilter selects; every part is optional (a null, or an empty array).
e.consumer_group_id = :group_id AND e.status = 'dead'
AND (:from_id::bigint IS NULL OR e.message_id >= :from_id::bigint)
AND (:to_id::bigint IS NULL OR e.message_id <= :to_id::bigint)
AND (:message_key::text IS NULL OR e.message_key = :message_key::text)
AND (:error_text::text IS NULL OR strpos(lower(coalesce(e.last_error, '')), lower(:error_text::text)) > 0)
AND (:dead_since::timestamptz IS NULL OR e.updated_at >= :dead_since::timestamptz)
AND (cardinality(:message_ids::bigint[]) = 0 OR e.message_id = ANY (:message_ids::bigint[]))

-- name: dead_letter_page
-- A dead row's updated_at is when it went dead: nothing writes a dead row but the verbs that take it out of dead.
SELECT e.message_id, e.message_key, m.routing_key, m.schema_version, m.created_at, e.attempts, e.last_error,
       e.updated_at AS dead_since, m.payload::text AS payload, m.headers::text AS headers
FROM {schema}.exception_queue_{id} e
JOIN {schema}.message_log_{id} m ON m.id = e.message_id
WHERE {fragment:dead_letter_filter}
  AND (:before_id::bigint IS NULL OR e.message_id < :before_id::bigint)
ORDER BY e.message_id DESC
LIMIT :limit

-- name: dead_letter_count
SELECT count(*) AS dead FROM {schema}.exception_queue_{id} e WHERE {fragment:dead_letter_filter}

-- name: dead_letter_errors
SELECT coalesce(e.last_error, '') AS last_error, count(*) AS dead, max(e.message_id) AS sample_id,
       max(e.updated_at) AS newest_dead_since
FROM {schema}.exception_queue_{id} e
WHERE {fragment:dead_letter_filter}
GROUP BY coalesce(e.last_error, '')
ORDER BY count(*) DESC, max(e.message_id) DESC
LIMIT :limit

-- name: resolve_dead_letters
-- One batch of a redrive or a discard: dead rows that went dead no later than the action began, in id order,
-- skipping rows another transaction holds; each re-checked as dead when its lock is granted. A redrive makes the
-- row ready now with its runs and delays started over (attempts -1: the next run is number 0, as for a row
-- deferred before it ever ran); a discard only changes its status. The delivery log keeps the row's history and an
-- entry for the action; the action's audit row counts the batch in the same transaction.
WITH chosen AS (
    SELECT e.consumer_group_id, e.message_id, e.attempts
    FROM {schema}.exception_queue_{id} e
    WHERE {fragment:dead_letter_filter} AND e.updated_at <= :cutoff
    ORDER BY e.message_id
    LIMIT :batch
    FOR UPDATE SKIP LOCKED
),
changed AS (
    UPDATE {schema}.exception_queue_{id} x
    SET status = :new_status,
        attempts = CASE WHEN :redrive THEN -1 ELSE x.attempts END,
        delays = CASE WHEN :redrive THEN 0 ELSE x.delays END,
        can_run_after = now(), updated_at = now()
    FROM chosen
    WHERE x.consumer_group_id = chosen.consumer_group_id AND x.message_id = chosen.message_id
      AND x.status = 'dead'
    RETURNING x.message_id, chosen.attempts
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT :group_id, message_id, attempts, :log_status, :note FROM changed WHERE :logged
),
counted AS (
    UPDATE {schema}.consumer_group_action_log SET affected = affected + (SELECT count(*) FROM changed)
    WHERE id = :action_id
)
SELECT count(*) AS changed FROM changed

-- name: blocked_keys
-- For each message key of the group, its earliest unresolved row, when unresolved ordered rows of the key wait
-- behind it (the exception path claims an ordered row only once every earlier row of its key is resolved).
WITH heads AS (
    SELECT DISTINCT ON (e.message_key) e.message_key, e.message_id, e.status, e.attempts, e.last_error,
           e.can_run_after
    FROM {schema}.exception_queue_{id} e
    WHERE e.consumer_group_id = :group_id AND e.message_key IS NOT NULL
      AND e.status IN ('ready', 'inflight', 'deferred')
    ORDER BY e.message_key, e.message_id
),
blocked AS (
    SELECT h.*, (SELECT count(*) FROM {schema}.exception_queue_{id} w
                 WHERE w.consumer_group_id = :group_id AND w.message_key = h.message_key
                   AND w.message_id > h.message_id AND w.concurrency = 'ordered'
                   AND w.status IN ('ready', 'inflight', 'deferred')) AS waiting
    FROM heads h
)
SELECT message_key, message_id, status, attempts, last_error, can_run_after, waiting
FROM blocked
WHERE waiting > 0
ORDER BY message_id
LIMIT :limit

-- name: lock_group_actions
-- Serialises pause and resume of one group: the group's row, locked until the transaction ends.
SELECT id FROM {schema}.consumer_group_config WHERE id = :group_id FOR UPDATE

-- name: record_group_action
INSERT INTO {schema}.consumer_group_action_log (consumer_group_id, action, actor, filter)
VALUES (:group_id, :action, :actor, :filter::jsonb)
RETURNING id, action, actor, acted_at, affected, filter::text AS filter

-- name: group_action
SELECT id, action, actor, acted_at, affected, filter::text AS filter
FROM {schema}.consumer_group_action_log
WHERE id = :action_id

-- name: group_pause_state
-- The group's newest pause or resume: it is paused when that is a pause.
SELECT id, action, actor, acted_at, affected, filter::text AS filter
FROM {schema}.consumer_group_action_log
WHERE consumer_group_id = :group_id AND action IN ('pause', 'resume')
ORDER BY id DESC
LIMIT 1

-- name: group_actions
SELECT id, action, actor, acted_at, affected, filter::text AS filter
FROM {schema}.consumer_group_action_log
WHERE consumer_group_id = :group_id
ORDER BY id DESC
LIMIT :limit

-- name: locate_messages
-- The wanted messages (one id, or the newest of a key) and, for every group of the stream, where each stands: its
-- exception row decides when it has one (a ready row that ran is retrying, one that never ran, such as a redriven
-- row, is pending); else a message at or below the committed cursor is done, one inside a leased range in flight,
-- one at or below the claimed cursor outside every lease done (its range committed, the cursor not yet advanced),
-- and any other pending.
WITH wanted AS (
    SELECT id, message_key, routing_key, created_at
    FROM {schema}.message_log_{id}
    WHERE (:message_id::bigint IS NULL OR id = :message_id::bigint)
      AND (:message_key::text IS NULL OR message_key = :message_key::text)
    ORDER BY id DESC
    LIMIT :limit
)
SELECT w.id, w.message_key, w.routing_key, w.created_at, g.name AS group_name,
       CASE
           WHEN q.status IN ('dead', 'discarded', 'superseded') THEN q.status
           WHEN q.status = 'inflight' THEN 'in_flight'
           WHEN q.status = 'deferred' THEN 'waiting'
           WHEN q.status = 'ready' AND q.attempts >= 0 THEN 'retrying'
           WHEN q.status = 'ready' THEN 'pending'
           WHEN w.id <= k.committed THEN 'done'
           WHEN EXISTS (SELECT 1 FROM {schema}.claim_lease_{id} l
                        WHERE l.consumer_group_id = g.id AND w.id > l.low AND w.id <= l.high) THEN 'in_flight'
           WHEN w.id <= k.claimed THEN 'done'
           ELSE 'pending'
       END AS state,
       coalesce(q.attempts + 1, 0) AS runs, q.last_error,
       CASE WHEN q.status IN ('ready', 'deferred') THEN q.can_run_after END AS run_after
FROM wanted w
LEFT JOIN {schema}.consumer_group_config g ON g.stream_id = :stream_id
LEFT JOIN {schema}.consumer_group_cursor_{id} k ON k.consumer_group_id = g.id
LEFT JOIN {schema}.exception_queue_{id} q ON q.consumer_group_id = g.id AND q.message_id = w.id
ORDER BY w.id DESC, g.name
