package io.sqlstreams.engine.consume;

import java.time.Instant;

import io.sqlstreams.MessageOptions;

/**
 * One message handed to this session, with the options it runs under resolved (and its concurrency policy
 * pinned) when it was claimed.
 *
 * @param attempt which run this is, starting at 1
 */
record Delivery(long messageId, String routingKey, String messageKey, Long compactionRank, String payloadJson,
                Instant createdAt, MessageOptions options, int attempt) {
}
