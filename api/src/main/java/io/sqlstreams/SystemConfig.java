package io.sqlstreams;

import java.time.Duration;

/**
 * The installation's own settings, stored on its system workers' rows. Every field is optional; zero means unset.
 *
 * @param managerPollRate how often the process holding the {@code manager} worker reconciles the installation's
 *                        workers and sweeps expired liveness rows, and how often the other processes retry their
 *                        claim of it, jittered. Default 30 s. A running manager keeps its rate until it is claimed
 *                        again.
 */
public record SystemConfig(Duration managerPollRate) {

    public static final Duration DEFAULT_MANAGER_POLL_RATE = Duration.ofSeconds(30);

    private static final SystemConfig DEFAULTS = new SystemConfig(null);

    public SystemConfig {
        managerPollRate = Unset.ifZero(managerPollRate);
    }

    public static SystemConfig defaults() {
        return DEFAULTS;
    }

    public Duration resolvedManagerPollRate() {
        return Unset.or(managerPollRate, DEFAULT_MANAGER_POLL_RATE);
    }

    /**
     * Checks every field (SQL0108 listing each broken rule): the poll rate must not be negative and at most
     * {@link Limits#LONGEST_TIMING}.
     */
    public void validate() {
        Violations violations = new Violations();
        violations.timing("managerPollRate", managerPollRate);
        violations.throwIfAny();
    }
}
