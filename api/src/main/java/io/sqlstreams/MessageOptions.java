package io.sqlstreams;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a message requests from whoever consumes it. The same type is a producer's defaults, and a
 * consumer group's defaults ({@link ConsumerConfig#message()}), floors ({@link ConsumerConfig#messageMin()})
 * and ceilings ({@link ConsumerConfig#messageMax()}).
 *
 * <p>Every field is optional: {@code null} or zero means unset, and the next layer decides. Per field,
 * a delivery runs under the message's own request, else the producer's default, else the group's
 * default, clamped by the group's bounds; see {@link ConsumerConfig#resolve(MessageOptions)}.
 *
 * <p>The helpers ({@link #fill}, {@link #clamp}, {@link #resolveConcurrency}) never validate and never
 * change their receiver. Each has a static form that accepts a {@code null} receiver.
 *
 * @param concurrency the policy for this message's key; {@link Concurrency#PARALLEL} once resolved.
 *                    {@code EXCLUSIVE} and {@code ORDERED} require a message key.
 * @param timeout     how long the handler may run; 30 s as a group's default.
 * @param retry       the redelivery policy; unset fields fall to the group's policy field by field, and
 *                    {@code null} takes the group's policy whole (3 attempts by default).
 * @param scheduledAt the time a schedule's message is for, set by the schedule producer: a fact, never
 *                    a knob. Defaults and bounds never supply or constrain it.
 */
public record MessageOptions(Concurrency concurrency, Duration timeout, RetryPolicy retry, Instant scheduledAt) {

    private static final MessageOptions EMPTY = new MessageOptions(null, null, null, null);
    private static final RetryPolicy UNBOUNDED_RETRY = new RetryPolicy(null, null, null, null, null);

    public MessageOptions {
        timeout = Unset.ifZero(timeout);
    }

    /** Options with every field unset. Not equal to {@code null}. */
    public static MessageOptions empty() {
        return EMPTY;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().concurrency(concurrency).timeout(timeout).retry(retry).scheduledAt(scheduledAt);
    }

    /**
     * A new value whose unset fields come from {@code defaults}: concurrency, timeout and each retry
     * field separately. {@code scheduledAt} comes only from this value.
     */
    public MessageOptions fill(MessageOptions defaults) {
        return fill(this, defaults);
    }

    /**
     * {@link #fill(MessageOptions)} that accepts a null receiver: null with null defaults is null, and
     * null alone is a copy of the defaults without their {@code scheduledAt}.
     */
    public static MessageOptions fill(MessageOptions options, MessageOptions defaults) {
        if (options == null && defaults == null) {
            return null;
        }
        if (defaults == null) {
            return options;
        }
        if (options == null) {
            return new MessageOptions(defaults.concurrency, defaults.timeout, defaults.retry, null);
        }
        return new MessageOptions(
                Unset.or(options.concurrency, defaults.concurrency),
                Unset.or(options.timeout, defaults.timeout),
                RetryPolicy.fill(options.retry, defaults.retry),
                options.scheduledAt);
    }

    /**
     * A new value with the timeout and every numeric retry field held within positive bounds: below a
     * positive minimum it becomes the minimum, above a positive maximum the maximum. Zero or unset bounds
     * do not constrain, an unset value stays unset, and a null retry stays null. Concurrency and
     * scheduledAt pass through.
     */
    public MessageOptions clamp(MessageOptions minimum, MessageOptions maximum) {
        return clamp(this, minimum, maximum);
    }

    /** {@link #clamp(MessageOptions, MessageOptions)} that accepts a null receiver (and returns null). */
    public static MessageOptions clamp(MessageOptions options, MessageOptions minimum, MessageOptions maximum) {
        if (options == null) {
            return null;
        }
        MessageOptions low = minimum == null ? EMPTY : minimum;
        MessageOptions high = maximum == null ? EMPTY : maximum;
        return new MessageOptions(
                options.concurrency,
                Bounds.clamp(options.timeout, low.timeout, high.timeout),
                clampRetry(options.retry, retryOrUnbounded(low), retryOrUnbounded(high)),
                options.scheduledAt);
    }

    private static RetryPolicy retryOrUnbounded(MessageOptions bound) {
        return bound.retry == null ? UNBOUNDED_RETRY : bound.retry;
    }

    private static RetryPolicy clampRetry(RetryPolicy retry, RetryPolicy low, RetryPolicy high) {
        if (retry == null) {
            return null;
        }
        return new RetryPolicy(
                Bounds.clamp(retry.maxRetries(), low.maxRetries(), high.maxRetries()),
                Bounds.clamp(retry.maxDelays(), low.maxDelays(), high.maxDelays()),
                Bounds.clamp(retry.baseDelay(), low.baseDelay(), high.baseDelay()),
                Bounds.clamp(retry.maxDelay(), low.maxDelay(), high.maxDelay()),
                Bounds.clamp(retry.exponent(), low.exponent(), high.exponent()));
    }

    /**
     * A new value holding the policy a delivery runs under: a non-null {@code override} wins, else this
     * value's own concurrency, else {@link Concurrency#PARALLEL}. The retry policy is shared, not copied.
     */
    public MessageOptions resolveConcurrency(Concurrency override) {
        return resolveConcurrency(this, override);
    }

    /** {@link #resolveConcurrency(Concurrency)} that accepts a null receiver (a fresh value results). */
    public static MessageOptions resolveConcurrency(MessageOptions options, Concurrency override) {
        MessageOptions base = options == null ? EMPTY : options;
        Concurrency policy = override != null ? override
                : base.concurrency != null ? base.concurrency : Concurrency.PARALLEL;
        return new MessageOptions(policy, base.timeout, base.retry, base.scheduledAt);
    }

    /**
     * Stored-value equality without filling defaults; {@code scheduledAt} compared as an instant. Two
     * nulls are equal; null and {@link #empty()} are not.
     */
    public static boolean equal(MessageOptions a, MessageOptions b) {
        return Objects.equals(a, b);
    }

    /**
     * Checks a sparse document as a message, producer or group stores it: the timeout and every retry
     * field non-negative, durations no longer than {@link Limits#LONGEST_TIMING}, maxDelay not below
     * baseDelay when both are set, and scheduledAt within the years {@link Limits} allows.
     *
     * @throws InvalidConfigurationException (SQL0108) listing every broken rule
     */
    public void validate() {
        Violations violations = new Violations();
        collectViolations(violations, "message");
        violations.throwIfAny();
    }

    void collectViolations(Violations violations, String path) {
        violations.timing(path + ".timeout", timeout);
        if (retry != null) {
            retry.collectSparseViolations(violations, path + ".retry");
        }
        violations.require(scheduledAt == null || !scheduledAt.isBefore(Limits.EARLIEST_SCHEDULED_AT)
                        && !scheduledAt.isAfter(Limits.LATEST_SCHEDULED_AT), path + ".scheduledAt", scheduledAt,
                "must lie from " + Limits.EARLIEST_SCHEDULED_AT + " to " + Limits.LATEST_SCHEDULED_AT);
    }

    /** Every field of these floors against the same field of {@code ceiling}, where both are set. */
    void collectFloorViolations(Violations violations, String path, MessageOptions ceiling, String ceilingPath) {
        violations.notAbove(path + ".timeout", timeout, ceilingPath + ".timeout", ceiling.timeout);
        if (retry != null && ceiling.retry != null) {
            retry.collectFloorViolations(violations, path + ".retry", ceiling.retry, ceilingPath + ".retry");
        }
    }

    /** Builds options field by field; unset fields stay null. */
    public static final class Builder {
        private Concurrency concurrency;
        private Duration timeout;
        private RetryPolicy retry;
        private Instant scheduledAt;

        private Builder() {
        }

        public Builder concurrency(Concurrency concurrency) {
            this.concurrency = concurrency;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder retry(RetryPolicy retry) {
            this.retry = retry;
            return this;
        }

        public Builder scheduledAt(Instant scheduledAt) {
            this.scheduledAt = scheduledAt;
            return this;
        }

        public MessageOptions build() {
            return new MessageOptions(concurrency, timeout, retry, scheduledAt);
        }
    }
}
