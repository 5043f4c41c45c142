package io.sqlstreams;

import java.time.Duration;

/**
 * The policy of one of the stream alerts ({@code partition_count}, {@code compaction_read_cost},
 * {@code worker_liveness}, {@code fence_held}). Every field is optional; zero or null means the default.
 *
 * @param schedule        how often the check runs: {@code @every <duration>}, such as {@code @every 30s}. Default
 *                        {@code @every 1m}
 * @param threshold       the value at which the condition holds (reaching it counts). Defaults:
 *                        {@code partition_count} half the lock ceiling PostgreSQL reports
 *                        ({@code max_locks_per_transaction × (max_connections + max_prepared_transactions) / 2});
 *                        {@code compaction_read_cost} 10,000 partitions; {@code worker_liveness} 1 unclaimed worker;
 *                        {@code fence_held} 10 seconds an open producing transaction has held back a group
 * @param pendingDuration how long the condition must hold, across recorded samples, before the alert is active.
 *                        Default 2 min
 * @param maximumGap      the widest gap between two samples (and between the newest sample and now) that still
 *                        counts as continuous evidence. Default 2 min
 * @param disablePending  the first unhealthy sample makes the alert active at once
 */
public record StreamAlertConfig(String schedule, Long threshold, Duration pendingDuration, Duration maximumGap,
                                boolean disablePending) {

    public static final String DEFAULT_SCHEDULE = "@every 1m";
    public static final Duration DEFAULT_PENDING_DURATION = Duration.ofMinutes(2);
    public static final Duration DEFAULT_MAXIMUM_GAP = Duration.ofMinutes(2);

    private static final StreamAlertConfig DEFAULTS = new StreamAlertConfig(null, null, null, null, false);

    public StreamAlertConfig {
        schedule = schedule == null || schedule.isBlank() ? null : schedule.trim();
        threshold = Unset.ifZero(threshold);
        pendingDuration = Unset.ifZero(pendingDuration);
        maximumGap = Unset.ifZero(maximumGap);
    }

    public static StreamAlertConfig defaults() {
        return DEFAULTS;
    }

    /** This policy with {@code threshold} instead. */
    public StreamAlertConfig withThreshold(long value) {
        return new StreamAlertConfig(schedule, value, pendingDuration, maximumGap, disablePending);
    }

    public String resolvedSchedule() {
        return Unset.or(schedule, DEFAULT_SCHEDULE);
    }

    public Duration resolvedPendingDuration() {
        return Unset.or(pendingDuration, DEFAULT_PENDING_DURATION);
    }

    public Duration resolvedMaximumGap() {
        return Unset.or(maximumGap, DEFAULT_MAXIMUM_GAP);
    }

    void validate(String property, Violations violations) {
        AlertSchedules.check(property + ".schedule", schedule, violations);
        violations.require(threshold == null || threshold >= 0, property + ".threshold", threshold,
                "must not be negative");
        violations.timing(property + ".pendingDuration", pendingDuration);
        violations.timing(property + ".maximumGap", maximumGap);
    }
}
