-- Retained series of __system.metrics (digest §7.5): each series' compaction head is its newest measurement.

-- name: retained_series
-- The head message of every series that matches: its metric name (the routing key), built-in or not (the name
-- under the reserved prefix), and every attribute asked for among the payload's attributes. series_total counts
-- every matching series before the limit cuts the page; a null limit lists them all.
SELECT m.id, m.created_at, m.routing_key, m.message_key, m.compaction_rank, m.schema_version,
       m.payload::text AS payload, m.headers::text AS headers, count(*) OVER () AS series_total
FROM {schema}.compaction_head_{id} h
JOIN {schema}.message_log_{id} m ON m.id = h.message_id
WHERE (:metric_name::text IS NULL OR m.routing_key = :metric_name::text)
  AND (:built_in::boolean IS NULL OR starts_with(m.routing_key, :reserved_prefix) = :built_in::boolean)
  AND NOT EXISTS (SELECT 1 FROM unnest(:attribute_keys::text[], :attribute_values::text[]) AS wanted(k, v)
                  WHERE m.payload -> 'attributes' ->> wanted.k IS DISTINCT FROM wanted.v)
ORDER BY m.routing_key COLLATE "C", h.compaction_key COLLATE "C"
LIMIT :row_limit::bigint
