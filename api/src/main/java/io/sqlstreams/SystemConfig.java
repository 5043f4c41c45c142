package io.sqlstreams;

import java.time.Duration;

/**
 * The installation's own settings, stored on its system workers' rows. Every field is optional; zero means unset.
 *
 * @param managerPollRate         how often the process holding the {@code manager} worker reconciles the
 *                                installation's workers and sweeps expired liveness rows, and how often the other
 *                                processes retry their claim of it, jittered. Default 30 s. A running manager keeps
 *                                its rate until it is claimed again.
 * @param metricCollectorPollRate how often the {@code metrics_collector} worker records the built-in metrics of
 *                                every stream and group on {@code __system.metrics}, jittered. Default 30 s. A
 *                                running collector keeps its rate until it is claimed again.
 */
public record SystemConfig(Duration managerPollRate, Duration metricCollectorPollRate) {

    public static final Duration DEFAULT_MANAGER_POLL_RATE = Duration.ofSeconds(30);
    public static final Duration DEFAULT_METRIC_COLLECTOR_POLL_RATE = Duration.ofSeconds(30);

    private static final SystemConfig DEFAULTS = new SystemConfig(null, null);

    public SystemConfig {
        managerPollRate = Unset.ifZero(managerPollRate);
        metricCollectorPollRate = Unset.ifZero(metricCollectorPollRate);
    }

    /** Only the manager's poll rate; the collector's is the default. */
    public SystemConfig(Duration managerPollRate) {
        this(managerPollRate, null);
    }

    public static SystemConfig defaults() {
        return DEFAULTS;
    }

    public Duration resolvedManagerPollRate() {
        return Unset.or(managerPollRate, DEFAULT_MANAGER_POLL_RATE);
    }

    public Duration resolvedMetricCollectorPollRate() {
        return Unset.or(metricCollectorPollRate, DEFAULT_METRIC_COLLECTOR_POLL_RATE);
    }

    /**
     * Checks every field (SQL0108 listing each broken rule): no poll rate may be negative or longer than
     * {@link Limits#LONGEST_TIMING}.
     */
    public void validate() {
        Violations violations = new Violations();
        violations.timing("managerPollRate", managerPollRate);
        violations.timing("metricCollectorPollRate", metricCollectorPollRate);
        violations.throwIfAny();
    }
}
