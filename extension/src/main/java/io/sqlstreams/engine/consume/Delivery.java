package io.sqlstreams.engine.consume;

import java.time.Instant;

import io.sqlstreams.MessageOptions;

/**
 * One message handed to this session, with the options it runs under resolved (and its concurrency policy
 * pinned) when it was claimed.
 *
 * @param headersJson the stored headers document, or null for none
 * @param attempt which run this is, starting at 1; only runs whose handler started count
 * @param delays  how many times a handler asked to run it later so far
 * @param start   records that the handler starts, on its thread, just before it runs
 */
record Delivery(long messageId, String routingKey, String messageKey, Long compactionRank, String payloadJson,
                String headersJson, Instant createdAt, MessageOptions options, int attempt, int delays, RunStart start) {

    /** How the start of a run is recorded before its handler runs. */
    @FunctionalInterface
    interface RunStart {
        RunStart UNRECORDED = () -> true;

        /**
         * Records that the run starts; false when it must not run (its lease is no longer this run's).
         *
         * @throws io.sqlstreams.SqlStreamsException when the database could not record it
         */
        boolean record();
    }
}
