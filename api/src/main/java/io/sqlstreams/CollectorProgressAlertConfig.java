package io.sqlstreams;

import java.time.Duration;

/**
 * The policy of the {@code metrics_collector_progress} alert. Every field is optional; zero or null means the
 * default.
 *
 * @param schedule        how often the check runs: {@code @every <duration>}. Default {@code @every 1m}
 * @param maximumAge      how old the collector's last completed pass may be while a manager is live. Default the
 *                        larger of 2 min and three collector poll rates
 * @param pendingDuration how long the collector must have been late, with a manager continuously live, before the
 *                        alert is active. Default 2 min
 * @param disablePending  being late makes the alert active at once
 */
public record CollectorProgressAlertConfig(String schedule, Duration maximumAge, Duration pendingDuration,
                                           boolean disablePending) {

    private static final Duration SHORTEST_DEFAULT_MAXIMUM_AGE = Duration.ofMinutes(2);
    private static final CollectorProgressAlertConfig DEFAULTS =
            new CollectorProgressAlertConfig(null, null, null, false);

    public CollectorProgressAlertConfig {
        schedule = schedule == null || schedule.isBlank() ? null : schedule.trim();
        maximumAge = Unset.ifZero(maximumAge);
        pendingDuration = Unset.ifZero(pendingDuration);
    }

    public static CollectorProgressAlertConfig defaults() {
        return DEFAULTS;
    }

    public String resolvedSchedule() {
        return Unset.or(schedule, StreamAlertConfig.DEFAULT_SCHEDULE);
    }

    /** The maximum age, or by default the larger of 2 min and three times {@code collectorPollRate}. */
    public Duration resolvedMaximumAge(Duration collectorPollRate) {
        if (maximumAge != null) {
            return maximumAge;
        }
        Duration threePolls = collectorPollRate.multipliedBy(3);
        return threePolls.compareTo(SHORTEST_DEFAULT_MAXIMUM_AGE) > 0 ? threePolls : SHORTEST_DEFAULT_MAXIMUM_AGE;
    }

    public Duration resolvedPendingDuration() {
        return Unset.or(pendingDuration, StreamAlertConfig.DEFAULT_PENDING_DURATION);
    }

    void validate(String property, Violations violations) {
        AlertSchedules.check(property + ".schedule", schedule, violations);
        violations.timing(property + ".maximumAge", maximumAge);
        violations.timing(property + ".pendingDuration", pendingDuration);
    }
}
