package io.sqlstreams;

import java.time.Duration;

/**
 * Automatic batching of concurrent {@code produce} calls. Batching is commit-driven, with no linger
 * timer: while one batch commits, the next fills, so the batch size follows the arrival rate (one when
 * idle). A second batch commits beside the first only once {@code maxSize} messages are waiting, so
 * moderate load makes bigger transactions rather than more of them. A whole batch is retried on a transient failure, which is safe because every message carries an
 * idempotency claim. Every field is optional ({@code null} or zero means the default).
 *
 * @param maxSize          messages per shared transaction. Default 100.
 * @param concurrencyLimit most batches committing at once per stream, one pooled connection each. Default 4.
 * @param attemptTimeout   bound on one batch transaction attempt. Default 10 s.
 * @param shutdownGrace    how long an interrupted {@code produce} keeps waiting for its real outcome;
 *                         negative abandons at once. Default 15 s.
 */
public record BatcherConfig(Integer maxSize, Integer concurrencyLimit, Duration attemptTimeout,
                            Duration shutdownGrace) {

    public static final int DEFAULT_MAX_SIZE = 100;
    public static final int DEFAULT_CONCURRENCY_LIMIT = 4;
    public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(15);

    public BatcherConfig {
        maxSize = Unset.ifZero(maxSize);
        concurrencyLimit = Unset.ifZero(concurrencyLimit);
        attemptTimeout = Unset.ifZero(attemptTimeout);
        shutdownGrace = Unset.ifZero(shutdownGrace);
    }

    public static BatcherConfig defaults() {
        return new BatcherConfig(null, null, null, null);
    }

    public int resolvedMaxSize() {
        return Unset.or(maxSize, DEFAULT_MAX_SIZE);
    }

    public int resolvedConcurrencyLimit() {
        return Unset.or(concurrencyLimit, DEFAULT_CONCURRENCY_LIMIT);
    }

    public Duration resolvedAttemptTimeout() {
        return Unset.or(attemptTimeout, DEFAULT_ATTEMPT_TIMEOUT);
    }

    /** The shutdown grace; negative means an interrupted produce stops waiting at once. */
    public Duration resolvedShutdownGrace() {
        return Unset.or(shutdownGrace, DEFAULT_SHUTDOWN_GRACE);
    }

    void collectViolations(Violations violations, String path) {
        violations.atLeast(path + ".maxSize", maxSize, 1);
        violations.atLeast(path + ".concurrencyLimit", concurrencyLimit, 1);
        violations.timing(path + ".attemptTimeout", attemptTimeout);
        violations.atMost(path + ".shutdownGrace", shutdownGrace, Limits.LONGEST_TIMING);
    }
}
