package io.sqlstreams.engine.produce;

import java.util.UUID;

import io.sqlstreams.engine.query.ProduceQueries;

/**
 * One message ready to insert: validated, encoded, the caller's idempotency key resolved (null when the caller gave
 * none: the write's batch key, minted before its first attempt, covers it). Resolving the key before the first
 * attempt is what makes every retry of the same message safe.
 */
record PreparedMessage(UUID idempotencyKey, int schemaVersion, String routingKey, String messageKey,
                       Long compactionRank, String payloadJson, String optionsJson,
                       String headersJson)
        implements ProduceQueries.MessageRow {
}
