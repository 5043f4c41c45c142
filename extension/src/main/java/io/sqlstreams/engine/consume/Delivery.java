package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

import io.sqlstreams.MessageOptions;

/**
 * One message handed to this session, with the options it runs under resolved (and its concurrency policy
 * pinned) when it was claimed.
 *
 * @param headersJson the stored headers document, or null for none
 * @param attempt which run this is, starting at 1; only runs whose handler started count
 * @param delays  how many times a handler asked to run it later so far
 * @param records records that the handler starts (on its thread, just before it runs) and, for a transactional
 *                handler, that it succeeded, inside its transaction
 */
record Delivery(long messageId, String routingKey, String messageKey, Long compactionRank, String payloadJson,
                String headersJson, Instant createdAt, MessageOptions options, int attempt, int delays, RunRecords records) {

    /** What a run writes of itself apart from its outcome, which a range or the exception path records. */
    interface RunRecords {
        /** A fresh range's run: nothing before the handler, and its success is recorded with its range. */
        RunRecords UNRECORDED = new RunRecords() {
            @Override
            public boolean start() {
                return true;
            }

            @Override
            public boolean succeeded(Connection transaction) {
                return true;
            }
        };

        /**
         * Records that the run starts; false when it must not run (its lease is no longer this run's).
         *
         * @throws io.sqlstreams.SqlStreamsException when the database could not record it
         */
        boolean start();

        /** Records the run's success in {@code transaction}, the handler's; false when its lease was lost. */
        boolean succeeded(Connection transaction) throws SQLException;
    }
}
