-- Producing. One statement claims its idempotency keys first (which gives the transaction its xid before
-- any message id is drawn from the sequence: the consumers' snapshot fence relies on that order): the batch's
-- own key, when some message came without a caller's key, then each caller's key in argument order. It inserts
-- the messages whose claim was new (a message without a caller's key rides on the batch key's claim, so a batch
-- retried after a lost commit acknowledgement writes nothing twice) in argument order, and moves each compacted
-- key's head to the greatest (schema_version, compaction_rank, id), taking head rows in key order. Payloads,
-- options and headers travel as one JSON array each (no array-literal escaping); JSON null stands for none. The
-- payloads' array is read as json, which only checks it, and each element is parsed to jsonb on its own: parsing
-- the whole array as jsonb and taking its elements apart took about 1.6 times as long (1,000 payloads of 1 KB).

-- name: produce
WITH input AS (
    SELECT item.*, payload.value::jsonb AS payload, nullif(options.value, 'null') AS options,
           nullif(headers.value, 'null') AS headers
    FROM unnest(:idempotency_keys::uuid[], :schema_versions::int[], :routing_keys::text[], :message_keys::text[],
                :compaction_ranks::bigint[])
         WITH ORDINALITY AS item (idempotency_key, schema_version, routing_key, message_key, compaction_rank, ordinal)
    JOIN json_array_elements(:payloads::json) WITH ORDINALITY AS payload (value, ordinal) USING (ordinal)
    JOIN jsonb_array_elements(:options::jsonb) WITH ORDINALITY AS options (value, ordinal) USING (ordinal)
    JOIN jsonb_array_elements(:headers::jsonb) WITH ORDINALITY AS headers (value, ordinal) USING (ordinal)
),
batch AS (
    SELECT :batch_key::uuid AS idempotency_key
),
claimed AS (
    INSERT INTO {schema}.idempotency_key_{id} (idempotency_key)
    SELECT claim.idempotency_key
    FROM (SELECT idempotency_key, 0::bigint AS ordinal FROM batch
          UNION ALL
          SELECT idempotency_key, ordinal FROM input) claim
    WHERE claim.idempotency_key IS NOT NULL
    ORDER BY claim.ordinal
    ON CONFLICT DO NOTHING
    RETURNING idempotency_key
),
inserted AS (
    INSERT INTO {schema}.message_log_{id} (schema_version, routing_key, message_key, compaction_rank, payload, options,
                                           headers)
    SELECT item.schema_version, item.routing_key, item.message_key, item.compaction_rank, item.payload,
           item.options, item.headers
    FROM input item
    WHERE coalesce(item.idempotency_key, (SELECT idempotency_key FROM batch)) IN (SELECT idempotency_key FROM claimed)
    ORDER BY item.ordinal
    RETURNING id, schema_version, message_key, compaction_rank
),
heads AS (
    INSERT INTO {schema}.compaction_head_{id} AS head (compaction_key, message_id, schema_version, compaction_rank)
    SELECT DISTINCT ON (message_key) message_key, id, schema_version, compaction_rank
    FROM inserted
    WHERE compaction_rank IS NOT NULL
    ORDER BY message_key, schema_version DESC, compaction_rank DESC, id DESC
    ON CONFLICT (compaction_key) DO UPDATE
    SET message_id = EXCLUDED.message_id, schema_version = EXCLUDED.schema_version,
        compaction_rank = EXCLUDED.compaction_rank, updated_at = now()
    WHERE head.message_id IS NULL
       OR (EXCLUDED.schema_version, EXCLUDED.compaction_rank, EXCLUDED.message_id)
          > (head.schema_version, head.compaction_rank, head.message_id)
    RETURNING 1
)
SELECT (SELECT coalesce(array_agg(idempotency_key::text), '{}') FROM claimed) AS claimed_keys,
       (SELECT coalesce(array_agg(id ORDER BY id), '{}') FROM inserted) AS inserted_ids,
       (SELECT count(*) FROM heads) AS heads_moved

-- A batch failed for good after an attempt whose commit acknowledgement may have been lost: claiming its batch key
-- answers whether that attempt committed (the key is taken) or not (the claim is new, and now no late attempt can).
-- name: claim_batch_key
INSERT INTO {schema}.idempotency_key_{id} (idempotency_key)
VALUES (:batch_key::uuid)
ON CONFLICT DO NOTHING
