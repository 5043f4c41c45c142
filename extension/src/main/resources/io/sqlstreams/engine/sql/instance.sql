-- Liveness rows of running workers: claim under the worker's target, token-guarded heartbeat and release.

-- name: lock_worker_for_claim
-- Taken in the claim's transaction before claim_worker_instance: under READ COMMITTED a statement's snapshot is
-- fixed when it starts, so the live count must be read by a statement that starts after this lock is granted, or
-- two simultaneous claims would both count the instances as they were before either committed.
SELECT id FROM {schema}.worker_config WHERE id = :worker_id FOR UPDATE

-- name: claim_worker_instance
-- One row while the worker exists (whatever owns it): the new instance's id and token, both null when the claim
-- was declined (suspended, or at target), and the worker's target; no row when the worker is gone.
WITH worker AS (
    SELECT id, target_instances FROM {schema}.worker_config WHERE id = :worker_id FOR UPDATE
),
live AS (
    SELECT count(*) AS n FROM {schema}.worker_instance i, worker w WHERE i.worker_id = w.id AND i.expires_at > now()
),
claimed AS (
    INSERT INTO {schema}.worker_instance (worker_id, expires_at)
    SELECT w.id, now() + :ttl_micros * interval '1 microsecond' FROM worker w, live
    WHERE w.target_instances = -1 OR live.n < w.target_instances
    RETURNING id, worker_id, token, expires_at, attempts, created_at
),
logged AS (
    INSERT INTO {schema}.worker_instance_log (worker_instance_id, worker_id, token, expires_at, attempts, created_at)
    SELECT id, worker_id, token, expires_at, attempts, created_at FROM claimed
)
SELECT c.id, c.token::text AS token, w.target_instances FROM worker w LEFT JOIN claimed c ON c.worker_id = w.id

-- name: lock_worker_for_renewal
-- Taken in the renewal's transaction before renew_worker_instance: shared with other renewals, exclusive with a
-- claim (lock_worker_for_claim). Without it a renewal that started just before its row expired could commit after
-- a claim had counted that row as expired, and two holders of a one-instance worker would run side by side.
SELECT w.id FROM {schema}.worker_config w JOIN {schema}.worker_instance i ON i.worker_id = w.id
WHERE i.id = :instance_id FOR SHARE OF w

-- name: renew_worker_instance
-- Renews only an unexpired row with the holder's token, writing the holder's failure streak with it; reports the
-- worker's target so a suspension is seen. Expired is judged by the clock when the row is read, after the lock:
-- the transaction's start (now()) may lie before a wait for a claim.
WITH renewed AS (
    UPDATE {schema}.worker_instance i
    SET expires_at = now() + :ttl_micros * interval '1 microsecond', attempts = :attempts
    FROM {schema}.worker_config w
    WHERE i.id = :instance_id AND i.token = :token::uuid AND i.expires_at > clock_timestamp() AND w.id = i.worker_id
    RETURNING i.id, i.worker_id, i.token, i.expires_at, i.attempts, i.created_at, w.target_instances
),
logged AS (
    INSERT INTO {schema}.worker_instance_log (worker_instance_id, worker_id, token, expires_at, attempts, created_at)
    SELECT id, worker_id, token, expires_at, attempts, created_at FROM renewed
)
SELECT count(*) AS renewed, coalesce(min(target_instances), -1) AS target_instances FROM renewed

-- name: set_worker_instance_attempts
UPDATE {schema}.worker_instance SET attempts = :attempts WHERE id = :instance_id AND token = :token::uuid

-- name: release_worker_instance
DELETE FROM {schema}.worker_instance WHERE id = :instance_id AND token = :token::uuid
