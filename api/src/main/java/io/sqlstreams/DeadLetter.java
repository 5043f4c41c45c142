package io.sqlstreams;

import java.time.Instant;
import java.util.Map;

/**
 * A message that is dead for one consumer group: its exception row and the message as retained.
 *
 * @param messageId     its id in the stream
 * @param messageKey    its message key, or null
 * @param routingKey    its routing key, or null
 * @param schemaVersion the payload version it was written as
 * @param createdAt     when it was written
 * @param runs          how many times its handler ran for this group
 * @param lastError     the error of its last run, as recorded
 * @param deadSince     when it went dead
 * @param payloadJson   its payload as stored, a JSON document
 * @param headers       the headers it was produced with; empty for none
 */
public record DeadLetter(long messageId, String messageKey, String routingKey, int schemaVersion, Instant createdAt,
                         int runs, String lastError, Instant deadSince, String payloadJson, Map<String, String> headers) {

    public DeadLetter {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }
}
