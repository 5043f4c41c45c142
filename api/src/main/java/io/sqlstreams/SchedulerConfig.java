package io.sqlstreams;

import java.time.Duration;

/**
 * A schedule's declaration beside its expression and payload, stored on its row at
 * {@link SchedulerHandle#register} (newest declaration wins, a differing one logs SQL0062).
 *
 * @param timeout     the delivery timeout written into every message the schedule produces. Default 30 s; at most
 *                    {@link Limits#LONGEST_TIMING}.
 * @param concurrency {@link Concurrency#PARALLEL} (the default): runs of the schedule may overlap;
 *                    {@link Concurrency#EXCLUSIVE}: a run waits until the previous one, still running, is done
 *                    (the schedule's name is every message's key). {@link Concurrency#ORDERED} is refused.
 * @param metadata    a JSON object for operators, stored beside the schedule and never put into its messages;
 *                    null for none
 */
public record SchedulerConfig(Duration timeout, Concurrency concurrency, String metadata) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private static final SchedulerConfig DEFAULTS = new SchedulerConfig(null, null, null);

    public SchedulerConfig {
        timeout = Unset.ifZero(timeout);
    }

    /** Every field at its default. */
    public static SchedulerConfig defaults() {
        return DEFAULTS;
    }

    public SchedulerConfig withTimeout(Duration value) {
        return new SchedulerConfig(value, concurrency, metadata);
    }

    public SchedulerConfig withConcurrency(Concurrency value) {
        return new SchedulerConfig(timeout, value, metadata);
    }

    public SchedulerConfig withMetadata(String json) {
        return new SchedulerConfig(timeout, concurrency, json);
    }

    public Duration resolvedTimeout() {
        return timeout == null ? DEFAULT_TIMEOUT : timeout;
    }

    public Concurrency resolvedConcurrency() {
        return concurrency == null ? Concurrency.PARALLEL : concurrency;
    }

    /**
     * Checks the timeout and the concurrency; the metadata's JSON is checked where it is stored.
     *
     * @throws InvalidConfigurationException (SQL0108) listing every broken rule
     */
    public void validate() {
        Violations violations = new Violations();
        violations.require(timeout == null || !timeout.isNegative(), "schedulerConfig.timeout", timeout,
                "must be positive (zero means the default)");
        violations.atMost("schedulerConfig.timeout", timeout, Limits.LONGEST_TIMING);
        violations.require(concurrency != Concurrency.ORDERED, "schedulerConfig.concurrency",
                concurrency == null ? null : concurrency.wireName(),
                "must be parallel or exclusive: a schedule's runs have no order to keep");
        violations.throwIfAny();
    }
}
