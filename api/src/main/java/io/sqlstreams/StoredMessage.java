package io.sqlstreams;

import java.time.Instant;

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
 */
public record StoredMessage<T>(long id, Instant createdAt, String routingKey, String messageKey,
                               Long compactionRank, int schemaVersion, T message) {
}
