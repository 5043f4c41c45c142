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
 * @param partitionCountAlert          the policy of the {@code partition_count} alert (SQL0094); null for defaults
 * @param compactionReadCostAlert      the policy of the {@code compaction_read_cost} alert (SQL0095); null for
 *                                     defaults
 * @param workerLivenessAlert          the policy of the {@code worker_liveness} alert (SQL0096); null for defaults
 * @param metricCollectorProgressAlert the policy of the {@code metrics_collector_progress} alert (SQL0101); null for
 *                                     defaults
 * @param fenceHeldAlert               the policy of the {@code fence_held} alert (SQL0162); null for defaults
 */
public record SystemConfig(Duration managerPollRate, Duration metricCollectorPollRate,
                           StreamAlertConfig partitionCountAlert, StreamAlertConfig compactionReadCostAlert,
                           StreamAlertConfig workerLivenessAlert,
                           CollectorProgressAlertConfig metricCollectorProgressAlert,
                           StreamAlertConfig fenceHeldAlert) {

    public static final Duration DEFAULT_MANAGER_POLL_RATE = Duration.ofSeconds(30);
    public static final Duration DEFAULT_METRIC_COLLECTOR_POLL_RATE = Duration.ofSeconds(30);

    private static final SystemConfig DEFAULTS = new SystemConfig(null, null);

    public SystemConfig {
        managerPollRate = Unset.ifZero(managerPollRate);
        metricCollectorPollRate = Unset.ifZero(metricCollectorPollRate);
        partitionCountAlert = Unset.or(partitionCountAlert, StreamAlertConfig.defaults());
        compactionReadCostAlert = Unset.or(compactionReadCostAlert, StreamAlertConfig.defaults());
        workerLivenessAlert = Unset.or(workerLivenessAlert, StreamAlertConfig.defaults());
        metricCollectorProgressAlert = Unset.or(metricCollectorProgressAlert, CollectorProgressAlertConfig.defaults());
        fenceHeldAlert = Unset.or(fenceHeldAlert, StreamAlertConfig.defaults());
    }

    /** The poll rates; every alert keeps its default policy. */
    public SystemConfig(Duration managerPollRate, Duration metricCollectorPollRate) {
        this(managerPollRate, metricCollectorPollRate, null, null, null, null, null);
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
     * This configuration with these four alert policies given instead (null for a default one); the
     * {@code fence_held} policy is kept.
     */
    public SystemConfig withAlerts(StreamAlertConfig partitionCount, StreamAlertConfig compactionReadCost,
                                   StreamAlertConfig workerLiveness, CollectorProgressAlertConfig collectorProgress) {
        return new SystemConfig(managerPollRate, metricCollectorPollRate, partitionCount, compactionReadCost,
                workerLiveness, collectorProgress, fenceHeldAlert);
    }

    /** This configuration with the {@code fence_held} alert's policy given instead (null for the default). */
    public SystemConfig withFenceHeldAlert(StreamAlertConfig fenceHeld) {
        return new SystemConfig(managerPollRate, metricCollectorPollRate, partitionCountAlert, compactionReadCostAlert,
                workerLivenessAlert, metricCollectorProgressAlert, fenceHeld);
    }

    /**
     * Checks every field (SQL0108 listing each broken rule): no poll rate or alert duration may be negative or
     * longer than {@link Limits#LONGEST_TIMING}, no threshold negative, and an alert schedule must read
     * {@code @every <duration>}.
     */
    public void validate() {
        Violations violations = new Violations();
        violations.timing("managerPollRate", managerPollRate);
        violations.timing("metricCollectorPollRate", metricCollectorPollRate);
        partitionCountAlert.validate("partitionCountAlert", violations);
        compactionReadCostAlert.validate("compactionReadCostAlert", violations);
        workerLivenessAlert.validate("workerLivenessAlert", violations);
        metricCollectorProgressAlert.validate("metricCollectorProgressAlert", violations);
        fenceHeldAlert.validate("fenceHeldAlert", violations);
        violations.throwIfAny();
    }
}
