package io.sqlstreams.engine.produce;

import java.util.UUID;

import io.sqlstreams.engine.query.ProduceQueries;

/**
 * One message ready to insert: validated, encoded, its idempotency key resolved. Resolving the key before
 * the first attempt is what makes every retry of the same message safe.
 */
record PreparedMessage(UUID idempotencyKey, int schemaVersion, String routingKey, String messageKey,
                       Long compactionRank, String payloadJson, String optionsJson,
                       String headersJson)
        implements ProduceQueries.MessageRow {
}
