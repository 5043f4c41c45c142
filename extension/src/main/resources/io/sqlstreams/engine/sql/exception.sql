-- The exception path: the crash-loop backstop, the claim of due rows, and token-guarded outcome writes.

-- name: kill_crash_looping
WITH killed AS (
    UPDATE {schema}.exception_queue_{id}
    SET status = 'dead', last_error = coalesce(last_error, '') || ' [killed: crash-loop hit max attempts]',
        lease_token = NULL, lease_expires_at = NULL, updated_at = now()
    WHERE consumer_group_id = ? AND status = 'inflight' AND lease_expires_at < now() AND attempts - delays >= ?
    RETURNING message_id, attempts, last_error
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT ?, message_id, attempts, 'killed', last_error FROM killed WHERE ?
)
SELECT count(*) FROM killed

-- name: claim_exceptions
WITH due AS (
    SELECT e.consumer_group_id, e.message_id, e.status AS previous_status, e.attempts AS previous_attempts
    FROM {schema}.exception_queue_{id} e
    JOIN {schema}.message_log_{id} m ON m.id = e.message_id
    WHERE e.consumer_group_id = ?
      AND e.attempts - e.delays < ?
      AND m.schema_version = ?
      AND ((e.status = 'ready' AND e.can_run_after <= now())
           OR (e.status = 'inflight' AND e.lease_expires_at < now())
           OR e.status = 'deferred')
      AND (e.message_key IS NULL OR NOT EXISTS (
               SELECT 1 FROM {schema}.message_key_lease_{id} k
               WHERE k.consumer_group_id = e.consumer_group_id AND k.message_key = e.message_key
                 AND k.expires_at > now()))
      AND (e.concurrency <> 'ordered' OR NOT EXISTS (
               SELECT 1 FROM {schema}.exception_queue_{id} p
               WHERE p.consumer_group_id = e.consumer_group_id AND p.message_key = e.message_key
                 AND p.message_id < e.message_id AND p.status IN ('ready', 'inflight', 'deferred')))
    ORDER BY e.message_id
    LIMIT ?
    FOR UPDATE OF e SKIP LOCKED
),
claimed AS (
    UPDATE {schema}.exception_queue_{id} x
    SET status = 'inflight', attempts = x.attempts + 1, lease_token = gen_random_uuid(),
        lease_expires_at = now() + ? * interval '1 microsecond', updated_at = now()
    FROM due
    WHERE x.consumer_group_id = due.consumer_group_id AND x.message_id = due.message_id
    RETURNING x.message_id, x.attempts, x.delays, x.lease_token::text, x.message_key, x.concurrency,
              due.previous_status, due.previous_attempts
),
expired AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT ?, message_id, previous_attempts, 'expired', 'lease expired before an outcome was recorded'
    FROM claimed WHERE previous_status = 'inflight' AND ?
)
SELECT c.message_id, c.attempts, c.delays, c.lease_token, c.message_key, c.concurrency,
       m.routing_key, m.compaction_rank, m.payload::text, m.options::text, m.created_at
FROM claimed c JOIN {schema}.message_log_{id} m ON m.id = c.message_id
ORDER BY c.message_id

-- name: renew_exception_lease
UPDATE {schema}.exception_queue_{id}
SET lease_expires_at = now() + ? * interval '1 microsecond'
WHERE consumer_group_id = ? AND message_id = ? AND lease_token = ?::uuid
RETURNING 1

-- name: exception_succeeded
WITH done AS (
    DELETE FROM {schema}.exception_queue_{id}
    WHERE consumer_group_id = ? AND message_id = ? AND lease_token = ?::uuid
    RETURNING message_id, attempts
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT ?, message_id, attempts, 'success', '' FROM done WHERE ?
)
SELECT count(*) FROM done

-- name: exception_resolved
-- Writes a non-success outcome: status, delays added, next run time, error text, and its audit row.
WITH updated AS (
    UPDATE {schema}.exception_queue_{id}
    SET status = ?, delays = delays + ?, can_run_after = now() + ? * interval '1 microsecond', last_error = ?,
        lease_token = NULL, lease_expires_at = NULL, updated_at = now()
    WHERE consumer_group_id = ? AND message_id = ? AND lease_token = ?::uuid
    RETURNING message_id, attempts
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT ?, message_id, attempts, ?, ? FROM updated WHERE ?
)
SELECT count(*) FROM updated

-- name: exception_handed_back
-- A claimed row that did not run goes back with its claim's attempt given back: as 'ready' when the session
-- stops, 'deferred' when its key is busy, 'superseded' when a newer compaction head exists.
WITH updated AS (
    UPDATE {schema}.exception_queue_{id}
    SET status = ?, concurrency = ?, attempts = attempts - 1, can_run_after = now(), lease_token = NULL,
        lease_expires_at = NULL, updated_at = now()
    WHERE consumer_group_id = ? AND message_id = ? AND lease_token = ?::uuid
    RETURNING message_id, attempts
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT ?, message_id, attempts, ?, ? FROM updated WHERE ?
)
SELECT count(*) FROM updated
