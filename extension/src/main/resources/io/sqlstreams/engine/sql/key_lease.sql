-- Message key leases: at most one in-flight delivery per (group, key) for the exclusive and ordered policies.
-- A lease is taken when no row exists, the row has expired, or it already carries the claimant's own token.

-- name: take_key_lease
INSERT INTO {schema}.message_key_lease_{id} AS lease (consumer_group_id, message_key, token, expires_at)
VALUES (?, ?, ?::uuid, now() + ? * interval '1 microsecond')
ON CONFLICT (consumer_group_id, message_key) DO UPDATE
SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
WHERE lease.expires_at < now() OR lease.token = EXCLUDED.token
RETURNING 1

-- name: take_key_lease_of_head
-- A compacted message takes the lease only while it is still its key's head.
WITH head AS (
    SELECT EXISTS (SELECT 1 FROM {schema}.compaction_head_{id} h WHERE h.compaction_key = ? AND h.message_id = ?)
           AS current
),
taken AS (
    INSERT INTO {schema}.message_key_lease_{id} AS lease (consumer_group_id, message_key, token, expires_at)
    SELECT ?, ?, ?::uuid, now() + ? * interval '1 microsecond' FROM head WHERE head.current
    ON CONFLICT (consumer_group_id, message_key) DO UPDATE
    SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
    WHERE lease.expires_at < now() OR lease.token = EXCLUDED.token
    RETURNING 1
)
SELECT (SELECT current FROM head), EXISTS (SELECT 1 FROM taken)

-- name: drop_key_lease_if_superseded
-- The head re-checked with a fresh snapshot: a newer version committed meanwhile gives the lease back.
DELETE FROM {schema}.message_key_lease_{id}
WHERE consumer_group_id = ? AND message_key = ? AND token = ?::uuid
  AND NOT EXISTS (SELECT 1 FROM {schema}.compaction_head_{id} h WHERE h.compaction_key = ? AND h.message_id = ?)
RETURNING 1

-- name: take_key_lease_in_order
-- An ordered message waits while an earlier message of its key is unresolved: an exception row of the group
-- still ready, in flight or deferred, or a message of the key between the group's committed cursor and this
-- one that lies outside the claimant's own range (messages inside it are chained in process).
WITH blocked AS (
    SELECT EXISTS (SELECT 1 FROM {schema}.exception_queue_{id} e
                   WHERE e.consumer_group_id = ? AND e.message_key = ? AND e.message_id < ?
                     AND e.status IN ('ready', 'inflight', 'deferred'))
        OR EXISTS (SELECT 1 FROM {schema}.message_log_{id} m
                   JOIN {schema}.consumer_group_cursor_{id} c ON c.consumer_group_id = ?
                   WHERE m.message_key = ? AND m.id > c.committed AND m.id < ?
                     AND NOT (m.id > ? AND m.id <= ?)) AS busy
),
taken AS (
    INSERT INTO {schema}.message_key_lease_{id} AS lease (consumer_group_id, message_key, token, expires_at)
    SELECT ?, ?, ?::uuid, now() + ? * interval '1 microsecond' FROM blocked WHERE NOT blocked.busy
    ON CONFLICT (consumer_group_id, message_key) DO UPDATE
    SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
    WHERE lease.expires_at < now() OR lease.token = EXCLUDED.token
    RETURNING 1
)
SELECT EXISTS (SELECT 1 FROM taken)

-- name: release_key_lease
DELETE FROM {schema}.message_key_lease_{id} WHERE consumer_group_id = ? AND message_key = ? AND token = ?::uuid
RETURNING 1
