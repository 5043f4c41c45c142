-- The fresh claim under the snapshot fence, reclaim and quarantine of expired ranges, and range commits.

-- fragment: deliverable_row
-- Whether log row m is deliverable to group :group_id: its payload version :schema_version, current compaction
-- heads only, and, for a group with bindings, a routing key matching one of its patterns (a row without one
-- matches none). Included inline, so the planner sees the subqueries as it would written out.
m.schema_version = :schema_version
  AND (m.compaction_rank IS NULL
       OR m.id = (SELECT h.message_id FROM {schema}.compaction_head_{id} h WHERE h.compaction_key = m.message_key))
  AND (NOT EXISTS (SELECT 1 FROM {schema}.binding_config_{id} b WHERE b.consumer_group_id = :group_id)
       OR EXISTS (SELECT 1 FROM {schema}.binding_config_{id} b
                  WHERE b.consumer_group_id = :group_id AND m.routing_key ~ b.pattern_regex))

-- name: observe
-- Own statement, auto-commit. Allocates a transaction id after the snapshot unless the group is idle, so
-- waiting until that xid is older than every running transaction proves every lower id has settled.
WITH observed AS (
    SELECT (SELECT coalesce(max(id), 0) FROM {schema}.message_log_{id}) AS head,
           c.claimed, c.settled_head, c.pending_head
    FROM {schema}.consumer_group_cursor_{id} c
    WHERE c.consumer_group_id = :group_id
)
SELECT head, claimed, settled_head, pending_head,
       EXISTS (SELECT 1 FROM {schema}.claim_lease_{id} l
               WHERE l.consumer_group_id = :group_id AND l.expires_at < now()) AS lease_expired,
       CASE WHEN head = claimed AND head = settled_head AND head = pending_head THEN NULL
            ELSE pg_current_xact_id()::text END AS observed_xid
FROM observed

-- name: lock_cursor
-- Also turns JIT off for the claim transaction: on a log whose partitions were never analysed the planner's
-- estimates make every short claim statement pay tens of milliseconds of compilation. And its commit does not wait
-- for the WAL flush: a claim lost in a server crash only hands its range out again (as a crashed session's
-- range is), and the durable range commit that follows it flushes it anyway.
-- An observation's fence has passed once no transaction that took its xid before the observed one can still add a
-- row to this stream's log (docs/engine.md, "The fence"): at once when the server's oldest running xid is past it,
-- else when no open producer of this stream (open_producers) is older. The pg_locks scan runs only then.
WITH open_producers AS (
    SELECT max(age(p.xid)) AS xid_age FROM ({fragment:open_producers}) p
)
SELECT claimed, settled_head, pending_head, set_config('jit', 'off', true) AS jit,
       set_config('synchronous_commit', 'off', true) AS synchronous_commit,
       CASE WHEN :observed_xid::xid8 IS NULL THEN false
            WHEN pg_snapshot_xmin(pg_current_snapshot()) >= :observed_xid::xid8 THEN true
            ELSE coalesce((SELECT xid_age FROM open_producers)
                          <= age((:observed_xid::xid8::text::bigint % 4294967296)::text::xid), true)
       END AS observed_fence_passed,
       CASE WHEN pending_xid IS NULL THEN false
            WHEN pg_snapshot_xmin(pg_current_snapshot()) >= pending_xid THEN true
            ELSE coalesce((SELECT xid_age FROM open_producers)
                          <= age((pending_xid::text::bigint % 4294967296)::text::xid), true)
       END AS pending_fence_passed
FROM {schema}.consumer_group_cursor_{id}
WHERE consumer_group_id = :group_id
FOR UPDATE OF consumer_group_cursor_{id}

-- fragment: open_producers
-- One row per transaction that holds a RowExclusiveLock on this stream's log and a transaction id (prepared
-- transactions included: they keep their locks): its backend (null when prepared) and its oldest xid. A producer
-- takes that lock before it draws an id and keeps it until it ends; its xid comes before its ids (produce.sql).
-- One pg_locks scan, grouped by transaction.
SELECT max(l.pid) AS pid,
       (array_agg(l.transactionid ORDER BY age(l.transactionid) DESC)
            FILTER (WHERE l.locktype = 'transactionid'))[1] AS xid
FROM pg_locks l
WHERE l.granted
  AND (l.locktype = 'transactionid'
       OR (l.locktype = 'relation' AND l.mode = 'RowExclusiveLock'
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND l.relation = '{schema}.message_log_{id}'::regclass))
GROUP BY l.virtualtransaction
HAVING bool_or(l.locktype = 'relation') AND bool_or(l.locktype = 'transactionid')

-- fragment: open_producer_activity
-- Each open producer of this stream (open_producers): its backend (null when prepared), xid, how long it has been
-- open (null when its start cannot be read) and what it is doing (pg_stat_activity, pg_prepared_xacts).
SELECT p.pid, p.xid,
       (extract(epoch FROM now() - coalesce(a.xact_start, x.prepared)) * 1000)::bigint AS open_millis,
       coalesce('prepared as ' || quote_literal(x.gid), a.state, 'unknown') AS state
FROM ({fragment:open_producers}) p
LEFT JOIN pg_stat_activity a ON a.pid = p.pid
LEFT JOIN pg_prepared_xacts x ON p.pid IS NULL AND x.transaction = p.xid

-- name: fence_holders
-- The open producers that hold back an observation of :observed_xid, oldest first.
SELECT h.pid, h.xid::text AS xid, h.open_millis, h.state
FROM ({fragment:open_producer_activity}) h
WHERE age(h.xid) > age((:observed_xid::xid8::text::bigint % 4294967296)::text::xid)
ORDER BY age(h.xid) DESC
LIMIT :limit

-- name: advance_and_lease
-- Moves the claimed cursor and, when that claimed anything, leases the range (old claimed, new claimed]. The
-- stored observation is kept until its fence has passed and only then replaced by the newer one: raising it
-- on every poll would let overlapping producer transactions keep it from ever passing. A poll that would change
-- nothing (it claims nothing while a fence holds) leaves the row as it is rather than writing a new version of it.
WITH advanced AS (
    UPDATE {schema}.consumer_group_cursor_{id}
    SET claimed = :claimed, settled_head = greatest(settled_head, :settled_head),
        pending_head = CASE WHEN pending_xid IS NULL OR :pending_fence_passed
                            THEN greatest(pending_head, :observed_head) ELSE pending_head END,
        pending_xid = CASE WHEN pending_xid IS NULL OR :pending_fence_passed
                           THEN coalesce(:observed_xid::xid8, pending_xid) ELSE pending_xid END
    WHERE consumer_group_id = :group_id
      AND (claimed <> :claimed OR settled_head < :settled_head
           OR ((pending_xid IS NULL OR :pending_fence_passed)
               AND (pending_head < :observed_head
                    OR pending_xid IS DISTINCT FROM coalesce(:observed_xid::xid8, pending_xid))))
    RETURNING claimed
)
INSERT INTO {schema}.claim_lease_{id} (consumer_group_id, low, high, expires_at)
SELECT :group_id, :low, claimed, now() + :lease_micros * interval '1 microsecond' FROM advanced WHERE claimed > :low
RETURNING token::text AS token

-- name: read_range
-- The deliverable rows of the range (:low, :high].
SELECT m.id, m.routing_key, m.message_key, m.compaction_rank, m.payload::text AS payload, m.options::text AS options,
       m.headers::text AS headers, m.created_at
FROM {schema}.message_log_{id} m
WHERE m.id > :low AND m.id <= :high AND {fragment:deliverable_row}
ORDER BY m.id

-- name: reclaim_expired_range
UPDATE {schema}.claim_lease_{id} l
SET reclaims = l.reclaims + 1, expires_at = now() + :lease_micros * interval '1 microsecond', token = gen_random_uuid()
FROM (SELECT consumer_group_id, token FROM {schema}.claim_lease_{id}
      WHERE consumer_group_id = :group_id AND expires_at < now()
      ORDER BY low
      LIMIT 1
      FOR UPDATE SKIP LOCKED) expired
WHERE l.consumer_group_id = expired.consumer_group_id AND l.token = expired.token
RETURNING l.token::text AS token, l.low, l.high, l.reclaims

-- name: quarantine_range
-- Every deliverable message of the released range becomes an exception row of :status; with :log_deliveries each
-- one also gets an audit row of :log_status.
WITH released AS (
    DELETE FROM {schema}.claim_lease_{id} WHERE consumer_group_id = :group_id AND token = :token::uuid
    RETURNING low, high
),
messages AS (
    SELECT m.id, m.message_key, coalesce(m.options->>'concurrency', 'parallel') AS concurrency
    FROM {schema}.message_log_{id} m, released r
    WHERE m.id > r.low AND m.id <= r.high AND {fragment:deliverable_row}
),
exceptions AS (
    INSERT INTO {schema}.exception_queue_{id} (consumer_group_id, message_id, status, message_key, concurrency,
                                               attempts, can_run_after, last_error)
    SELECT :group_id, id, :status, message_key, concurrency, 0, now(), 'quarantined: range reclaimed too many times'
    FROM messages
    ON CONFLICT (consumer_group_id, message_id) DO NOTHING
    RETURNING message_id, last_error
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT :group_id, message_id, 0, :log_status, last_error
    FROM exceptions WHERE :log_deliveries
)
SELECT (SELECT count(*) FROM released) AS released, (SELECT count(*) FROM exceptions) AS quarantined

-- name: surrender_range
-- Also gives back the key leases its chains took: the range never started, so none of them is in use.
WITH keys_released AS (
    DELETE FROM {schema}.message_key_lease_{id} WHERE consumer_group_id = :group_id AND token = :token::uuid
)
UPDATE {schema}.claim_lease_{id}
SET expires_at = now(), token = gen_random_uuid(), reclaims = greatest(reclaims - 1, -1)
WHERE consumer_group_id = :group_id AND token = :token::uuid

-- name: renew_range_lease
-- Token-guarded and only while the lease has not expired: a range still running in its session gets a fresh lease,
-- and the key leases its chains took under its token are kept at least as long (plus :key_margin_micros, as when
-- they were taken), so no key it holds expires before the range. Nothing changes when the lease was reclaimed or
-- has run out: the session then starts nothing more of the range.
WITH renewed AS (
    UPDATE {schema}.claim_lease_{id}
    SET expires_at = now() + :lease_micros * interval '1 microsecond'
    WHERE consumer_group_id = :group_id AND token = :token::uuid AND expires_at > now()
    RETURNING 1
),
keys_kept AS (
    UPDATE {schema}.message_key_lease_{id}
    SET expires_at = greatest(expires_at, now() + :lease_micros * interval '1 microsecond'
                                          + :key_margin_micros * interval '1 microsecond')
    WHERE consumer_group_id = :group_id AND token = :token::uuid AND expires_at > now()
      AND EXISTS (SELECT 1 FROM renewed)
    RETURNING 1
)
SELECT (SELECT count(*) FROM renewed) AS renewed, (SELECT count(*) FROM keys_kept) AS keys_kept

-- fragment: recorded_outcomes
-- The CTEs that write a recording's outcome rows, only when the CTE owned returned a row (the lease was still
-- held): the exception rows of messages that did not succeed and the audit rows its log mode keeps. A deferred
-- message never ran: its row starts at attempts -1 (see exception.sql), the others at 0, their first run.
outcome AS (
    SELECT * FROM unnest(:message_ids::bigint[], :statuses::text[], :message_keys::text[], :concurrencies::text[],
                         :delays::int[], :run_after_micros::bigint[], :last_errors::text[], :log_statuses::text[])
        AS o (message_id, status, message_key, concurrency, delays, run_after_us, last_error, log_status)
),
exceptions AS (
    INSERT INTO {schema}.exception_queue_{id} (consumer_group_id, message_id, status, message_key, concurrency,
                                               attempts, delays, can_run_after, last_error)
    SELECT :group_id, message_id, status, message_key, concurrency, CASE WHEN status = 'deferred' THEN -1 ELSE 0 END,
           delays,
           now() + run_after_us * interval '1 microsecond', last_error
    FROM outcome WHERE status IS NOT NULL AND EXISTS (SELECT 1 FROM owned)
    RETURNING 1
),
audit AS (
    INSERT INTO {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt, status, error)
    SELECT :group_id, message_id, 0, log_status, coalesce(last_error, '')
    FROM outcome WHERE log_status IS NOT NULL AND EXISTS (SELECT 1 FROM owned)
    RETURNING 1
)

-- name: record_range
-- Token-guarded: when the lease is gone (reclaimed by another instance), nothing is written. With a null
-- new low the whole range is resolved and its lease deleted; otherwise (shutdown's partial commit) the
-- resolved prefix is recorded and the unresolved suffix given back at once as a surrender does (expired, a new
-- token, not counted as a crash), for the next claimant to reclaim. Either way the key leases the range's
-- chains took under its token are given back.
WITH deleted AS (
    DELETE FROM {schema}.claim_lease_{id}
    WHERE consumer_group_id = :group_id AND token = :token::uuid AND :new_low::bigint IS NULL
    RETURNING 1
),
narrowed AS (
    UPDATE {schema}.claim_lease_{id}
    SET low = :new_low::bigint, expires_at = now(), token = gen_random_uuid(), reclaims = greatest(reclaims - 1, -1)
    WHERE consumer_group_id = :group_id AND token = :token::uuid AND :new_low::bigint IS NOT NULL
    RETURNING 1
),
owned AS (
    SELECT 1 FROM deleted UNION ALL SELECT 1 FROM narrowed
),
keys_released AS (
    DELETE FROM {schema}.message_key_lease_{id} WHERE consumer_group_id = :group_id AND token = :token::uuid
    RETURNING 1
),
{fragment:recorded_outcomes}
SELECT (SELECT count(*) FROM owned) AS owned, (SELECT count(*) FROM exceptions) AS exceptions,
       (SELECT count(*) FROM keys_released) AS keys_released

-- name: advance_range
-- A range whose messages commit one at a time (each in the host's transaction with its handler's writes): records
-- the outcomes resolved since the last advance and moves the lease's low to :new_low, keeping its token, expiry
-- and key leases, so a reclaim after a crash reads only what is left. Token-guarded like record_range, and never
-- moves low back.
WITH owned AS (
    UPDATE {schema}.claim_lease_{id}
    SET low = :new_low::bigint
    WHERE consumer_group_id = :group_id AND token = :token::uuid AND low < :new_low::bigint
    RETURNING 1
),
{fragment:recorded_outcomes}
SELECT (SELECT count(*) FROM owned) AS owned, (SELECT count(*) FROM exceptions) AS exceptions,
       0::bigint AS keys_released

-- name: advance_committed_target
-- One snapshot for the cursor and the group's leases and unresolved exceptions: a stale target can only be low.
SELECT c.committed,
       least((SELECT min(l.low) FROM {schema}.claim_lease_{id} l WHERE l.consumer_group_id = c.consumer_group_id),
             (SELECT min(e.message_id) - 1 FROM {schema}.exception_queue_{id} e
              WHERE e.consumer_group_id = c.consumer_group_id AND e.status IN ('ready', 'inflight', 'deferred')),
             c.claimed) AS target
FROM {schema}.consumer_group_cursor_{id} c
WHERE c.consumer_group_id = :group_id

-- name: advance_committed
UPDATE {schema}.consumer_group_cursor_{id} SET committed = :committed
WHERE consumer_group_id = :group_id AND committed < :committed
