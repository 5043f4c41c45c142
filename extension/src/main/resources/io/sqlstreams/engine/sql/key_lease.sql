-- Message key leases: at most one in-flight delivery per (group, key) for the exclusive and ordered policies.
-- A lease is taken when no row exists, the row has expired, or it already carries the claimant's own token.

-- name: take_key_leases
-- The leases of several keys under one token in one statement: a range's key chains, or one message on the
-- exception path. A key may be held back by earlier messages of it that are unresolved: an ordered key by an
-- exception row still ready, in flight or deferred (reported, so the caller defers at once), and a range's key
-- chain, ordered or exclusive, by a message inside an earlier open range other than the caller's own (the caller
-- waits for that range to commit, so ranges take a shared key in claim order and never split a key set between
-- them). Every id at or below the claimed cursor is in an open range or resolved, so the open ranges are exactly
-- the unresolved fresh work. The same statement gives back the leases of the caller's chains that have
-- finished (none on the exception path): a range that waits for a key must not hold keys it no longer needs.
WITH released AS (
    DELETE FROM {schema}.message_key_lease_{id}
    WHERE consumer_group_id = :group_id AND token = :token::uuid AND message_key = ANY (:finished_keys::text[])
    RETURNING 1
),
wanted AS (
    SELECT w.message_key, w.first_id, w.after_exceptions, w.after_ranges
    FROM unnest(:message_keys::text[], :first_ids::bigint[], :after_exceptions::boolean[], :after_ranges::boolean[])
        AS w (message_key, first_id, after_exceptions, after_ranges)
),
gated AS (
    SELECT w.message_key,
           w.after_exceptions
               AND EXISTS (SELECT 1 FROM {schema}.exception_queue_{id} e
                           WHERE e.consumer_group_id = :group_id AND e.message_key = w.message_key
                             AND e.message_id < w.first_id AND e.status IN ('ready', 'inflight', 'deferred'))
               AS after_exception,
           w.after_ranges
               AND EXISTS (SELECT 1 FROM {schema}.claim_lease_{id} l
                           JOIN {schema}.message_log_{id} m
                             ON m.message_key = w.message_key AND m.id > l.low AND m.id <= l.high
                            AND m.id < w.first_id
                           WHERE l.consumer_group_id = :group_id AND l.low < w.first_id
                             AND l.token IS DISTINCT FROM :token::uuid)
               AS after_open_range
    FROM wanted w
),
taken AS (
    INSERT INTO {schema}.message_key_lease_{id} AS lease (consumer_group_id, message_key, token, expires_at)
    SELECT :group_id, g.message_key, :token::uuid, now() + :lease_micros * interval '1 microsecond'
    FROM gated g WHERE NOT g.after_exception AND NOT g.after_open_range
    ON CONFLICT (consumer_group_id, message_key) DO UPDATE
    SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
    WHERE lease.expires_at < now() OR lease.token = EXCLUDED.token
    RETURNING lease.message_key
)
SELECT g.message_key, g.after_exception, EXISTS (SELECT 1 FROM taken t WHERE t.message_key = g.message_key) AS taken,
       (SELECT count(*) FROM released) AS released
FROM gated g

-- name: take_key_lease_of_head
-- A compacted message takes the lease only while it is still its key's head.
WITH head AS (
    SELECT EXISTS (SELECT 1 FROM {schema}.compaction_head_{id} h
                   WHERE h.compaction_key = :message_key AND h.message_id = :message_id)
           AS current
),
taken AS (
    INSERT INTO {schema}.message_key_lease_{id} AS lease (consumer_group_id, message_key, token, expires_at)
    SELECT :group_id, :message_key, :token::uuid, now() + :lease_micros * interval '1 microsecond'
    FROM head WHERE head.current
    ON CONFLICT (consumer_group_id, message_key) DO UPDATE
    SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
    WHERE lease.expires_at < now() OR lease.token = EXCLUDED.token
    RETURNING 1
)
SELECT (SELECT current FROM head) AS current, EXISTS (SELECT 1 FROM taken) AS taken

-- name: drop_key_lease_if_superseded
-- The head re-checked with a fresh snapshot: a newer version committed meanwhile gives the lease back.
DELETE FROM {schema}.message_key_lease_{id}
WHERE consumer_group_id = :group_id AND message_key = :message_key AND token = :token::uuid
  AND NOT EXISTS (SELECT 1 FROM {schema}.compaction_head_{id} h
                  WHERE h.compaction_key = :message_key AND h.message_id = :message_id)
RETURNING 1

-- name: release_key_lease
DELETE FROM {schema}.message_key_lease_{id}
WHERE consumer_group_id = :group_id AND message_key = :message_key AND token = :token::uuid
RETURNING 1
