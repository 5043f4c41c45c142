package io.sqlstreams;

import java.time.Duration;

/**
 * A stream's janitor: the worker that creates partitions ahead, applies retention and sweeps expired
 * idempotency claims and empty compaction rows. A new stream's janitor starts active. Every field is
 * optional ({@code null} or zero means the default).
 *
 * @param pollRate                time between passes, jittered by ±10 %. Default 5 s.
 * @param sweepBatchSize          rows deleted per transaction. Default 1000.
 * @param cleanupTimeout          bound on each cleanup step, retries included. Default 5 s.
 * @param partialSweepGracePeriod extra retention before the partial sweep of a partition's front. Default 0.
 */
public record JanitorConfig(Duration pollRate, Integer sweepBatchSize, Duration cleanupTimeout,
                            Duration partialSweepGracePeriod) {

    public static final Duration DEFAULT_POLL_RATE = Duration.ofSeconds(5);
    public static final int DEFAULT_SWEEP_BATCH_SIZE = 1000;
    public static final Duration DEFAULT_CLEANUP_TIMEOUT = Duration.ofSeconds(5);

    public JanitorConfig {
        pollRate = Unset.ifZero(pollRate);
        sweepBatchSize = Unset.ifZero(sweepBatchSize);
        cleanupTimeout = Unset.ifZero(cleanupTimeout);
        partialSweepGracePeriod = Unset.ifZero(partialSweepGracePeriod);
    }

    public static JanitorConfig defaults() {
        return new JanitorConfig(null, null, null, null);
    }

    public Duration resolvedPollRate() {
        return Unset.or(pollRate, DEFAULT_POLL_RATE);
    }

    public int resolvedSweepBatchSize() {
        return Unset.or(sweepBatchSize, DEFAULT_SWEEP_BATCH_SIZE);
    }

    public Duration resolvedCleanupTimeout() {
        return Unset.or(cleanupTimeout, DEFAULT_CLEANUP_TIMEOUT);
    }

    public Duration resolvedPartialSweepGracePeriod() {
        return Unset.or(partialSweepGracePeriod, Duration.ZERO);
    }

    void collectViolations(Violations violations, String path) {
        violations.timing(path + ".pollRate", pollRate);
        violations.atLeast(path + ".sweepBatchSize", sweepBatchSize, 1);
        violations.timing(path + ".cleanupTimeout", cleanupTimeout);
        violations.age(path + ".partialSweepGracePeriod", partialSweepGracePeriod);
    }
}
