package io.sqlstreams;

import java.time.Duration;

/**
 * How this process runs the system manager (whichever call starts it: a consume session, or
 * {@link ManagerHandle#run()}). Every field is optional; zero or null means unset.
 *
 * @param instanceTtl    how long a claim of the {@code manager} worker, and of every worker it runs, lives without
 *                       a heartbeat; renewed every half of it. A dead holder is replaced within it plus one claim
 *                       retry. Default 30 s.
 * @param instanceLogTtl how long the liveness history ({@code worker_instance_log}) is kept after each recorded
 *                       expiry. Default 24 h.
 * @param jitterFraction spread of every tick and claim retry: poll rate × (1 ± fraction), at least 0 and below 1.
 *                       Default 0.1.
 * @param refreshRetry   back-off after failed reconcile passes, and after the manager stopped on an error before it
 *                       claims again. Default {@link RetryPolicy#clientDefaults()}.
 */
public record ManagerConfig(Duration instanceTtl, Duration instanceLogTtl, Double jitterFraction,
                            RetryPolicy refreshRetry) {

    public static final Duration DEFAULT_INSTANCE_TTL = Duration.ofSeconds(30);
    public static final Duration DEFAULT_INSTANCE_LOG_TTL = Duration.ofHours(24);
    public static final double DEFAULT_JITTER_FRACTION = 0.1;

    private static final ManagerConfig DEFAULTS = new ManagerConfig(null, null, null, null);

    public ManagerConfig {
        instanceTtl = Unset.ifZero(instanceTtl);
        instanceLogTtl = Unset.ifZero(instanceLogTtl);
        refreshRetry = RetryPolicy.withDefaults(refreshRetry);
    }

    public static ManagerConfig defaults() {
        return DEFAULTS;
    }

    public Duration resolvedInstanceTtl() {
        return Unset.or(instanceTtl, DEFAULT_INSTANCE_TTL);
    }

    public Duration resolvedInstanceLogTtl() {
        return Unset.or(instanceLogTtl, DEFAULT_INSTANCE_LOG_TTL);
    }

    public double resolvedJitterFraction() {
        return Unset.or(jitterFraction, DEFAULT_JITTER_FRACTION);
    }

    void collectViolations(Violations violations, String path) {
        violations.timing(path + ".instanceTtl", instanceTtl);
        violations.require(instanceTtl == null || instanceTtl.compareTo(Duration.ofMillis(2)) >= 0,
                path + ".instanceTtl", instanceTtl, "must be at least 2ms");
        violations.age(path + ".instanceLogTtl", instanceLogTtl);
        violations.require(jitterFraction == null || (jitterFraction >= 0 && jitterFraction < 1),
                path + ".jitterFraction", jitterFraction, "must be at least 0 and below 1");
        refreshRetry.collectResolvedViolations(violations, path + ".refreshRetry");
    }
}
