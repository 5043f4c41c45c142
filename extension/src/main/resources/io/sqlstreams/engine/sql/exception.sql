-- The exception path: the crash-loop backstop, the claim of due rows, the start of a run, and token-guarded
-- outcome writes.
--
-- attempts is the number of a row's latest run, counted from 0: a first delivery on the range path is run 0, a
-- row whose first delivery was deferred before it ran starts at -1, and a run of the exception path adds one when
-- its handler starts (start_exception_run), never at the claim, so a claim whose consumer died before the handler
-- started costs nothing. The failure budget is attempts - delays. An outcome or a hand-back is logged at the number
-- of the run it is about; an expired or killed lease at the row's latest counted run.

-- name: kill_crash_looping
-- Only a run that started can have spent the budget: a claim never moves attempts.
WITH killed AS (
    UPDATE {schema}.exception_queue_{id}
    SET status = 'dead', last_error = coalesce(last_error, '') || ' [killed: crash-loop hit max attempts]',
        lease_token = NULL, lease_expires_at = NULL, updated_at = now()
    WHERE consumer_group_id = :group_id AND status = 'inflight' AND lease_expires_at < now()
      AND attempts - delays >= :max_retries
    RETURNING message_id, attempts, last_error
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT :group_id, message_id, attempts, 'killed', last_error FROM killed WHERE :logged
)
SELECT count(*) AS killed FROM killed

-- name: claim_exceptions
-- An ordered row is claimable when every unresolved earlier row of its key is claimable by this same statement
-- (due, of this payload version, with runs left), so a key's backlog goes in one pass, in id order. The order itself
-- is kept by the key lease taken before each run (take_key_leases), which holds a row back while any earlier row of
-- its key is unresolved: a row whose predecessor failed, or was taken by another claimant, goes back deferred.
WITH due AS (
    SELECT e.consumer_group_id, e.message_id, e.status AS previous_status
    FROM {schema}.exception_queue_{id} e
    JOIN {schema}.message_log_{id} m ON m.id = e.message_id
    WHERE e.consumer_group_id = :group_id
      AND e.attempts - e.delays < :max_retries
      AND m.schema_version = :schema_version
      AND ((e.status = 'ready' AND e.can_run_after <= now())
           OR (e.status = 'inflight' AND e.lease_expires_at < now())
           OR e.status = 'deferred')
      AND (e.message_key IS NULL OR NOT EXISTS (
               SELECT 1 FROM {schema}.message_key_lease_{id} k
               WHERE k.consumer_group_id = e.consumer_group_id AND k.message_key = e.message_key
                 AND k.expires_at > now()))
      AND (e.concurrency <> 'ordered' OR NOT EXISTS (
               SELECT 1 FROM {schema}.exception_queue_{id} p
               JOIN {schema}.message_log_{id} pm ON pm.id = p.message_id
               WHERE p.consumer_group_id = e.consumer_group_id AND p.message_key = e.message_key
                 AND p.message_id < e.message_id AND p.status IN ('ready', 'inflight', 'deferred')
                 AND NOT (pm.schema_version = :schema_version AND p.attempts - p.delays < :max_retries
                          AND ((p.status = 'ready' AND p.can_run_after <= now())
                               OR (p.status = 'inflight' AND p.lease_expires_at < now())
                               OR p.status = 'deferred'))))
    ORDER BY e.message_id
    LIMIT :limit
    FOR UPDATE OF e SKIP LOCKED
),
claimed AS (
    UPDATE {schema}.exception_queue_{id} x
    SET status = 'inflight', lease_token = gen_random_uuid(),
        lease_expires_at = now() + :lease_micros * interval '1 microsecond', updated_at = now()
    FROM due
    WHERE x.consumer_group_id = due.consumer_group_id AND x.message_id = due.message_id
    RETURNING x.message_id, x.attempts, x.delays, x.lease_token, x.message_key, due.previous_status
),
expired AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT :group_id, message_id, attempts, 'expired', 'lease expired before an outcome was recorded'
    FROM claimed WHERE previous_status = 'inflight' AND :logged
)
SELECT c.message_id, c.attempts, c.delays, c.lease_token, c.message_key, m.routing_key, m.compaction_rank,
       m.payload::text AS payload, m.options::text AS options, m.headers::text AS headers, m.created_at
FROM claimed c JOIN {schema}.message_log_{id} m ON m.id = c.message_id
ORDER BY c.message_id

-- name: next_exception_due
-- How long until the soonest ready row that is not due yet becomes due, measured by the server's clock, as the claim
-- compares it; no row when none waits. Read in the claim's transaction, so "not due yet" means not due at its claim.
SELECT (extract(epoch FROM can_run_after - now()) * 1000000)::int8 AS due_in_micros
FROM {schema}.exception_queue_{id}
WHERE consumer_group_id = :group_id AND status = 'ready' AND can_run_after > now()
  AND attempts - delays < :max_retries
ORDER BY can_run_after
LIMIT 1

-- name: start_exception_run
-- Run on the handler's thread just before the handler: from here on the run counts. Sets the run's number rather
-- than adding one, so a retried statement cannot count a run twice.
UPDATE {schema}.exception_queue_{id}
SET attempts = :attempts, updated_at = now()
WHERE consumer_group_id = :group_id AND message_id = :message_id AND lease_token = :token
RETURNING attempts

-- name: renew_exception_lease
UPDATE {schema}.exception_queue_{id}
SET lease_expires_at = now() + :lease_micros * interval '1 microsecond'
WHERE consumer_group_id = :group_id AND message_id = :message_id AND lease_token = :token
RETURNING 1

-- name: exception_succeeded
WITH done AS (
    DELETE FROM {schema}.exception_queue_{id}
    WHERE consumer_group_id = :group_id AND message_id = :message_id AND lease_token = :token
    RETURNING message_id
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT :group_id, message_id, :attempt, 'success', '' FROM done WHERE :logged
)
SELECT count(*) AS written FROM done

-- name: exception_resolved
-- Writes a non-success outcome: status, delays added, next run time, error text, and its audit row. A retryable
-- failure (max_retries set) whose counted runs reached the budget is dead instead of :status; the row's attempts
-- decide, since only the database knows whether the run's start was recorded.
WITH updated AS (
    UPDATE {schema}.exception_queue_{id}
    SET status = CASE WHEN attempts - delays >= :max_retries::int THEN 'dead' ELSE :status END,
        delays = delays + :delays_added, can_run_after = now() + :run_after_micros * interval '1 microsecond',
        last_error = :error, lease_token = NULL, lease_expires_at = NULL, updated_at = now()
    WHERE consumer_group_id = :group_id AND message_id = :message_id AND lease_token = :token
    RETURNING message_id, status, attempts
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT :group_id, message_id, :attempt, :log_status, :error FROM updated WHERE :logged
)
SELECT status, attempts FROM updated

-- name: exception_handed_back
-- A claimed row that did not run, or whose run its host interrupted, goes back with the attempts it had when it
-- was claimed: as 'ready' when the session stops, 'deferred' when its key is busy, 'superseded' when a newer
-- compaction head exists.
WITH updated AS (
    UPDATE {schema}.exception_queue_{id}
    SET status = :status, concurrency = :concurrency, attempts = :attempts, can_run_after = now(),
        lease_token = NULL, lease_expires_at = NULL, updated_at = now()
    WHERE consumer_group_id = :group_id AND message_id = :message_id AND lease_token = :token
    RETURNING message_id
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT :group_id, message_id, :attempt, :log_status, :reason FROM updated WHERE :logged
)
SELECT count(*) AS written FROM updated
