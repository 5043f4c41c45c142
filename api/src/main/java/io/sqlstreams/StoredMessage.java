package io.sqlstreams;

import java.time.Instant;
import java.util.Map;

/**
 * A message as retained in the stream.
 *
 * @param id             its position in the stream
 * @param createdAt      when it was written
 * @param routingKey     its routing key, or null
 * @param messageKey     its message key, or null
 * @param compactionRank its compaction rank, or null when it did not opt into compaction
 * @param schemaVersion  the payload version it was written as
 * @param message        the decoded payload
 * @param headers        the headers it was produced with; empty for none
 */
public record StoredMessage<T>(long id, Instant createdAt, String routingKey, String messageKey,
                               Long compactionRank, int schemaVersion, T message, Map<String, String> headers) {

    public StoredMessage {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }
}
