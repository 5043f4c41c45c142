-- Partitions of a stream's log: partition {partition} covers ids [{low}, {high}).

-- name: create_partition
CREATE TABLE IF NOT EXISTS {schema}.message_log_{id}_{partition}
    PARTITION OF {schema}.message_log_{id} FOR VALUES FROM ({low}) TO ({high})

-- name: lock_partition_creation
SELECT pg_advisory_xact_lock(hashtextextended(:partition_name, 0))

-- name: sequence_last_value
SELECT last_value, is_called FROM {schema}.message_log_{id}_id_seq

-- name: partition_exists
SELECT to_regclass(:partition_name) IS NOT NULL AS partition_exists
