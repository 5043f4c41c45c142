package io.sqlstreams;

import java.time.Instant;

/**
 * The dead letters of a group that share one last error.
 *
 * @param lastError       the error text they share
 * @param count           how many dead letters have it
 * @param sampleMessageId the newest of them, whose payload shows what failed
 * @param newestDeadSince when the most recent of them went dead
 */
public record DeadLetterErrors(String lastError, long count, long sampleMessageId, Instant newestDeadSince) {
}
