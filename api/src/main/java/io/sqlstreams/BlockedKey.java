package io.sqlstreams;

import java.time.Instant;

/**
 * An ordered message key of a consumer group whose later messages wait behind an unresolved earlier one.
 *
 * @param messageKey       the key
 * @param blockingId       the earliest unresolved message of the key, which the others wait for
 * @param blockingStatus   its exception-row status: {@code ready} (retrying), {@code inflight} or {@code deferred}
 * @param blockingRuns     how many times its handler ran
 * @param blockingError    its last error, or null
 * @param blockingRunAfter when it may run next
 * @param waiting          how many later messages of the key wait behind it
 */
public record BlockedKey(String messageKey, long blockingId, String blockingStatus, int blockingRuns,
                         String blockingError, Instant blockingRunAfter, long waiting) {
}
