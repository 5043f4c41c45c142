-- A stream's payload versions and what still reads them (StreamHandle.health), and what holds back its groups'
-- fresh claims (StreamHandle.fences); {id} is the stream's numeric id.

-- name: read_health_snapshot
-- The first statement of a health read's transaction: every count after it comes from the same snapshot.
SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY

-- name: version_health
-- One row per version and group with unresolved exception rows at it (a version no group has any at: one row, group
-- columns null). A version is present in the log or in a current compaction head (an emptied head has no version).
-- A group's exception rows count at the version of their message (rows whose message retention removed are not
-- counted); what it has not read yet is group_unread's, per group and version.
WITH logged AS (
    SELECT schema_version, count(*) AS messages, min(id) AS first_id, max(id) AS last_id
    FROM {schema}.message_log_{id}
    GROUP BY schema_version
), heads AS (
    SELECT schema_version, count(*) AS compaction_heads
    FROM {schema}.compaction_head_{id}
    WHERE schema_version IS NOT NULL
    GROUP BY schema_version
), exceptions AS (
    SELECT e.consumer_group_id, m.schema_version,
           count(*) FILTER (WHERE e.status IN ('ready', 'inflight', 'deferred')) AS retrying,
           count(*) FILTER (WHERE e.status = 'dead') AS dead
    FROM {schema}.exception_queue_{id} e
    JOIN {schema}.message_log_{id} m ON m.id = e.message_id
    WHERE e.status IN ('ready', 'inflight', 'deferred', 'dead')
    GROUP BY e.consumer_group_id, m.schema_version
), readers AS (
    SELECT r.schema_version, g.name AS consumer_group, r.retrying, r.dead
    FROM exceptions r
    JOIN {schema}.consumer_group_config g ON g.id = r.consumer_group_id
)
SELECT schema_version, coalesce(l.messages, 0) AS messages, l.first_id, l.last_id,
       coalesce(h.compaction_heads, 0) AS compaction_heads, r.consumer_group, r.retrying, r.dead
FROM logged l
FULL JOIN heads h USING (schema_version)
LEFT JOIN readers r USING (schema_version)
ORDER BY schema_version, r.consumer_group

-- name: group_cursors
-- Each group of the stream with its committed cursor, and the log's head: what a group has not read lies in
-- (committed, head].
SELECT c.consumer_group_id, g.name AS consumer_group, c.committed,
       (SELECT coalesce(max(m.id), 0) FROM {schema}.message_log_{id} m) AS head
FROM {schema}.consumer_group_cursor_{id} c
JOIN {schema}.consumer_group_config g ON g.id = c.consumer_group_id
ORDER BY g.name

-- name: group_unread
-- How many rows of (:low, :high] group :group_id will be delivered at payload version :schema_version: the claim's
-- own filter (claim.sql, deliverable_row), so rows its bindings exclude and superseded compaction rows are not
-- counted. The id range keeps the read to the partitions and index entries past the group's cursor.
SELECT count(*) AS unread
FROM {schema}.message_log_{id} m
WHERE m.id > :low AND m.id <= :high AND {fragment:deliverable_row}

-- name: group_fences
-- Each consumer group of the stream (or only :group_name), by name, with the open producers that hold back its
-- stored observation (its pending_xid, claim.sql): how many, and the oldest one (columns null when none). One
-- pg_locks scan for all groups.
WITH holders AS MATERIALIZED (
    SELECT h.*, age(h.xid) AS xid_age FROM ({fragment:open_producer_activity}) h
), held AS (
    SELECT c.consumer_group_id, h.pid, h.xid, h.open_millis, h.state,
           count(*) OVER (PARTITION BY c.consumer_group_id) AS holders,
           row_number() OVER (PARTITION BY c.consumer_group_id ORDER BY h.xid_age DESC) AS rank
    FROM {schema}.consumer_group_cursor_{id} c
    JOIN holders h ON h.xid_age > age((c.pending_xid::text::bigint % 4294967296)::text::xid)
)
SELECT g.name AS consumer_group, coalesce(held.holders, 0) AS holders, held.pid, held.xid::text AS xid,
       held.open_millis, held.state
FROM {schema}.consumer_group_config g
LEFT JOIN held ON held.consumer_group_id = g.id AND held.rank = 1
WHERE g.stream_id = :stream_id AND (:group_name::text IS NULL OR g.name = :group_name::text)
ORDER BY g.name
