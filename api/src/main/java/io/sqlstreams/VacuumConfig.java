package io.sqlstreams;

import java.time.Duration;

/**
 * A stream's vacuum worker: a scheduled {@code VACUUM (ANALYZE)} of the stream's idempotency-claim table.
 * A new stream's vacuum starts suspended; autovacuum should stay on. Every field is optional.
 *
 * @param pollRate      delay after each request, jittered. Default 2 min.
 * @param vacuumTimeout bound on one request, retries included. Default 1 min.
 */
public record VacuumConfig(Duration pollRate, Duration vacuumTimeout) {

    public static final Duration DEFAULT_POLL_RATE = Duration.ofMinutes(2);
    public static final Duration DEFAULT_VACUUM_TIMEOUT = Duration.ofMinutes(1);

    public VacuumConfig {
        pollRate = Unset.ifZero(pollRate);
        vacuumTimeout = Unset.ifZero(vacuumTimeout);
    }

    public static VacuumConfig defaults() {
        return new VacuumConfig(null, null);
    }

    public Duration resolvedPollRate() {
        return Unset.or(pollRate, DEFAULT_POLL_RATE);
    }

    public Duration resolvedVacuumTimeout() {
        return Unset.or(vacuumTimeout, DEFAULT_VACUUM_TIMEOUT);
    }

    void collectViolations(Violations violations, String path) {
        violations.timing(path + ".pollRate", pollRate);
        violations.timing(path + ".vacuumTimeout", vacuumTimeout);
    }
}
