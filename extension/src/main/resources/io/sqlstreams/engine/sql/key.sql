-- Reads by message key and the compaction-head lock.

-- name: compaction_head
SELECT m.id, m.created_at, m.routing_key, m.message_key, m.compaction_rank, m.schema_version,
       m.payload::text AS payload, m.headers::text AS headers
FROM {schema}.compaction_head_{id} h
JOIN {schema}.message_log_{id} m ON m.id = h.message_id
WHERE h.compaction_key = :compaction_key

-- name: ensure_compaction_row
INSERT INTO {schema}.compaction_head_{id} (compaction_key) VALUES (:compaction_key) ON CONFLICT DO NOTHING

-- name: lock_compaction_row
SELECT message_id FROM {schema}.compaction_head_{id} WHERE compaction_key = :compaction_key FOR UPDATE

-- name: messages_by_key
SELECT id, created_at, routing_key, message_key, compaction_rank, schema_version, payload::text AS payload,
       headers::text AS headers
FROM {schema}.message_log_{id}
WHERE message_key = :message_key
ORDER BY id DESC
LIMIT :row_limit
