package io.sqlstreams;

import java.math.BigInteger;
import java.time.Duration;

/**
 * A backoff curve. The same type serves two jobs with different defaults: {@link ClientConfig#retry()}
 * retries the library's PostgreSQL calls ({@link #clientDefaults()}: 6 attempts), and
 * {@link MessageOptions#retry()} is a message's redelivery policy ({@link #consumerDefaults()}: 3).
 *
 * <p>Every field is optional; {@code null} or zero means unset, so the next layer decides. The helpers
 * never validate and never change their receiver.
 *
 * @param maxRetries for a message: the runs after its first, so 3 means four handler runs, the last failure
 *                   dead-letters it (handler-requested delays are not counted); for the client: attempts of a
 *                   PostgreSQL call. Default 6 for the client, 3 for a consumer group.
 * @param maxDelays  handler-requested later runs ({@link Outcome#delay}) allowed before the delivery
 *                   dead-letters; redelivery only. Default unset: no cap.
 * @param baseDelay  the first backoff delay. Default 1 s.
 * @param maxDelay   the ceiling every later delay is capped at. Default 5 min.
 * @param exponent   growth factor: delay = baseDelay × exponent<sup>attempt</sup>. Default 2.
 */
public record RetryPolicy(Integer maxRetries, Integer maxDelays, Duration baseDelay, Duration maxDelay,
                          Integer exponent) {

    /**
     * The largest total sleep a policy may add up to: durations are stored as signed 64-bit nanosecond
     * counts, as in the reference.
     */
    public static final Duration LONGEST_TOTAL_DELAY = Duration.ofNanos(Long.MAX_VALUE);

    private static final RetryPolicy CLIENT_DEFAULTS =
            new RetryPolicy(6, null, Duration.ofSeconds(1), Duration.ofMinutes(5), 2);
    private static final RetryPolicy CONSUMER_DEFAULTS =
            new RetryPolicy(3, null, Duration.ofSeconds(1), Duration.ofMinutes(5), 2);

    public RetryPolicy {
        maxRetries = Unset.ifZero(maxRetries);
        maxDelays = Unset.ifZero(maxDelays);
        baseDelay = Unset.ifZero(baseDelay);
        maxDelay = Unset.ifZero(maxDelay);
        exponent = Unset.ifZero(exponent);
    }

    /** The policy for the library's own PostgreSQL calls: 6 attempts, 1 s base, ×2, capped at 5 min. */
    public static RetryPolicy clientDefaults() {
        return CLIENT_DEFAULTS;
    }

    /** A consumer group's redelivery default: 3 attempts on the same curve as the client's. */
    public static RetryPolicy consumerDefaults() {
        return CONSUMER_DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().maxRetries(maxRetries).maxDelays(maxDelays).baseDelay(baseDelay)
                .maxDelay(maxDelay).exponent(exponent);
    }

    /** Unset fields taken from {@code defaults} field by field; {@code null} when both are null. */
    public static RetryPolicy fill(RetryPolicy policy, RetryPolicy defaults) {
        if (policy == null) {
            return defaults;
        }
        if (defaults == null) {
            return policy;
        }
        return new RetryPolicy(
                Unset.or(policy.maxRetries, defaults.maxRetries),
                Unset.or(policy.maxDelays, defaults.maxDelays),
                Unset.or(policy.baseDelay, defaults.baseDelay),
                Unset.or(policy.maxDelay, defaults.maxDelay),
                Unset.or(policy.exponent, defaults.exponent));
    }

    /** This policy with its unset fields taken from {@link #clientDefaults()}. */
    public RetryPolicy withDefaults() {
        return fill(this, CLIENT_DEFAULTS);
    }

    /** {@link #clientDefaults()} for a null policy, else {@code policy.withDefaults()}. */
    public static RetryPolicy withDefaults(RetryPolicy policy) {
        return policy == null ? CLIENT_DEFAULTS : policy.withDefaults();
    }

    /**
     * Checks a resolved policy (call {@link #withDefaults()} first): maxRetries ≥ 1, maxDelays ≥ 0,
     * positive delays no longer than {@link Limits#LONGEST_TIMING} with maxDelay ≥ baseDelay, exponent ≥ 1,
     * and a total sleep no longer than
     * {@link #LONGEST_TOTAL_DELAY}.
     *
     * @throws InvalidConfigurationException (SQL0108) listing every broken rule
     */
    public void validate() {
        Violations violations = new Violations();
        collectResolvedViolations(violations, "retry");
        violations.throwIfAny();
    }

    void collectResolvedViolations(Violations violations, String path) {
        violations.require(maxRetries != null && maxRetries >= 1, path + ".maxRetries", maxRetries,
                "must be at least 1 (zero attempts would report success without running)");
        violations.notNegative(path + ".maxDelays", maxDelays);
        violations.require(baseDelay != null && !baseDelay.isNegative(), path + ".baseDelay", baseDelay,
                "must be positive");
        violations.require(maxDelay != null && !maxDelay.isNegative(), path + ".maxDelay", maxDelay,
                "must be positive");
        violations.atMost(path + ".baseDelay", baseDelay, Limits.LONGEST_TIMING);
        violations.atMost(path + ".maxDelay", maxDelay, Limits.LONGEST_TIMING);
        violations.require(exponent != null && exponent >= 1, path + ".exponent", exponent, "must be at least 1");
        boolean delaysValid = baseDelay != null && maxDelay != null && !baseDelay.isNegative()
                && !maxDelay.isNegative();
        if (delaysValid) {
            violations.require(maxDelay.compareTo(baseDelay) >= 0, path + ".maxDelay", maxDelay,
                    "must not be shorter than baseDelay " + baseDelay);
        }
        if (delaysValid && maxRetries != null && maxRetries >= 1 && exponent != null && exponent >= 1) {
            violations.require(totalDelayNanos().compareTo(BigInteger.valueOf(Long.MAX_VALUE)) <= 0,
                    path, this, "total sleep exceeds the longest storable duration (" + LONGEST_TOTAL_DELAY + ")");
        }
    }

    /**
     * Checks a sparse policy as stored on a message or a declaration: no field may be negative, nor a delay
     * longer than {@link Limits#LONGEST_TIMING}.
     */
    void collectSparseViolations(Violations violations, String path) {
        violations.notNegative(path + ".maxRetries", maxRetries);
        violations.notNegative(path + ".maxDelays", maxDelays);
        violations.timing(path + ".baseDelay", baseDelay);
        violations.timing(path + ".maxDelay", maxDelay);
        violations.notNegative(path + ".exponent", exponent);
        if (baseDelay != null && maxDelay != null && !baseDelay.isNegative() && !maxDelay.isNegative()) {
            violations.require(maxDelay.compareTo(baseDelay) >= 0, path + ".maxDelay", maxDelay,
                    "must not be shorter than baseDelay " + baseDelay);
        }
    }

    /** Every field of these floors against the same field of {@code ceiling}. */
    void collectFloorViolations(Violations violations, String path, RetryPolicy ceiling, String ceilingPath) {
        violations.notAbove(path + ".maxRetries", maxRetries, ceilingPath + ".maxRetries", ceiling.maxRetries);
        violations.notAbove(path + ".maxDelays", maxDelays, ceilingPath + ".maxDelays", ceiling.maxDelays);
        violations.notAbove(path + ".baseDelay", baseDelay, ceilingPath + ".baseDelay", ceiling.baseDelay);
        violations.notAbove(path + ".maxDelay", maxDelay, ceilingPath + ".maxDelay", ceiling.maxDelay);
        violations.notAbove(path + ".exponent", exponent, ceilingPath + ".exponent", ceiling.exponent);
    }

    /**
     * The sleep before zero-based {@code attempt}: baseDelay × exponent<sup>attempt</sup>, capped at
     * maxDelay (when set) and never negative. It does not stop at maxRetries. A negative attempt divides
     * instead (the redelivery index of a first delivery that was delayed, then failed, is −1: half the base
     * delay with the default exponent). Unset fields count as zero.
     */
    public Duration calculateDelay(int attempt) {
        return Duration.ofNanos(delayNanos(attempt).longValueExact());
    }

    /** The sum of the sleeps between maxRetries attempts: calculateDelay(0) … calculateDelay(maxRetries − 2). */
    public Duration calculateTotalDelay() {
        BigInteger total = totalDelayNanos();
        return total.compareTo(BigInteger.valueOf(Long.MAX_VALUE)) > 0
                ? LONGEST_TOTAL_DELAY : Duration.ofNanos(total.longValueExact());
    }

    private BigInteger totalDelayNanos() {
        BigInteger total = BigInteger.ZERO;
        BigInteger previous = null;
        int sleeps = maxRetries == null || maxRetries < 2 ? 0 : maxRetries - 1;
        for (int attempt = 0; attempt < sleeps; attempt++) {
            BigInteger delay = delayNanos(attempt);
            if (delay.equals(previous)) {
                // the curve is flat from here on (capped, constant or zero): the rest are all this long
                return total.add(delay.multiply(BigInteger.valueOf((long) sleeps - attempt)));
            }
            total = total.add(delay);
            previous = delay;
        }
        return total;
    }

    private BigInteger delayNanos(int attempt) {
        long base = baseDelay == null ? 0 : Math.max(0, saturatedNanos(baseDelay));
        long cap = maxDelay == null ? Long.MAX_VALUE : Math.max(0, saturatedNanos(maxDelay));
        int growth = exponent == null ? 0 : exponent;
        BigInteger limit = BigInteger.valueOf(cap);
        BigInteger delay = BigInteger.valueOf(base);
        if (attempt != 0 && growth < 1) {
            return BigInteger.ZERO;
        }
        if (growth > 1) {
            BigInteger factor = BigInteger.valueOf(growth);
            for (int step = 0; step < attempt && delay.signum() > 0 && delay.compareTo(limit) < 0; step++) {
                delay = delay.multiply(factor);
            }
            for (int step = 0; step > attempt && delay.signum() > 0; step--) {
                delay = delay.divide(factor);
            }
        }
        return delay.min(limit);
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** Builds a policy field by field; unset fields stay null. */
    public static final class Builder {
        private Integer maxRetries;
        private Integer maxDelays;
        private Duration baseDelay;
        private Duration maxDelay;
        private Integer exponent;

        private Builder() {
        }

        public Builder maxRetries(Integer maxRetries) {
            this.maxRetries = maxRetries;
            return this;
        }

        public Builder maxDelays(Integer maxDelays) {
            this.maxDelays = maxDelays;
            return this;
        }

        public Builder baseDelay(Duration baseDelay) {
            this.baseDelay = baseDelay;
            return this;
        }

        public Builder maxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
            return this;
        }

        public Builder exponent(Integer exponent) {
            this.exponent = exponent;
            return this;
        }

        public RetryPolicy build() {
            return new RetryPolicy(maxRetries, maxDelays, baseDelay, maxDelay, exponent);
        }
    }
}
