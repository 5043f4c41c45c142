package io.sqlstreams;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A consumer group's declaration: what the group means. It must be the same for every instance of the
 * group, so it is written to the group's rows at {@code register} (newest declaration wins, a
 * differing one logs SQL0059) and every running instance reads it back. How one process runs is
 * {@link ConsumeOptions}, never stored.
 *
 * <p>The declaration is stored sparse: fields left {@code null} (or zero) mean the library default,
 * resolved when an instance reads it, so a library upgrade moves the defaults of every group that never
 * pinned them.
 *
 * @param message                 defaults filling whatever a produced message left unset. Default:
 *                                timeout 30 s, retry 3 attempts on the default curve (1 s base, ×2,
 *                                capped at 5 min, no delay cap).
 * @param messageMin              per-field floors on what a message may request. Default: none.
 * @param messageMax              per-field ceilings; a message cannot ask for more than the group's
 *                                defaults unless raised here. Default: {@code message}'s resolved values
 *                                (concurrency excluded). Lease sizing uses its timeout.
 * @param concurrencyOverride     run every message under this policy instead of its own. Default: none
 *                                (each message's own policy, else parallel).
 * @param start                   where a brand-new group's cursor is placed; read once, at creation.
 *                                Default {@link Start#BEGINNING}.
 * @param bindings                the group's whole routing pattern set; {@code null} or empty is the whole
 *                                stream, and a group with any binding stops receiving messages without a
 *                                routing key. In a pattern {@code *} matches any run of characters, dots
 *                                included, and the pattern matches the whole routing key. A change lands only
 *                                while no instance of the group is live (until then it waits).
 * @param exceptionInitialBackoff the first retry delay written on a fresh exception row. Default 5 s.
 * @param maxRangeReclaims        reclaims of one range after which it is quarantined. Default 3.
 */
public record ConsumerConfig(MessageOptions message, MessageOptions messageMin, MessageOptions messageMax,
                             Concurrency concurrencyOverride, Start start, List<String> bindings,
                             Duration exceptionInitialBackoff, Integer maxRangeReclaims) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_EXCEPTION_INITIAL_BACKOFF = Duration.ofSeconds(5);
    public static final int DEFAULT_MAX_RANGE_RECLAIMS = 3;

    private static final MessageOptions LIBRARY_MESSAGE_DEFAULTS =
            new MessageOptions(null, DEFAULT_TIMEOUT, RetryPolicy.consumerDefaults(), null);
    private static final ConsumerConfig DEFAULTS = new ConsumerConfig(null, null, null, null, null, null, null, null);

    public ConsumerConfig {
        // not List.copyOf: a null pattern is a violation validate() reports, not a NullPointerException here
        bindings = bindings == null ? null : Collections.unmodifiableList(new ArrayList<>(bindings));
        exceptionInitialBackoff = Unset.ifZero(exceptionInitialBackoff);
        maxRangeReclaims = Unset.ifZero(maxRangeReclaims);
    }

    /** The empty declaration: every field at its library default. */
    public static ConsumerConfig defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().message(message).messageMin(messageMin).messageMax(messageMax)
                .concurrencyOverride(concurrencyOverride).start(start).bindings(bindings)
                .exceptionInitialBackoff(exceptionInitialBackoff).maxRangeReclaims(maxRangeReclaims);
    }

    /** The group's message defaults with the library's filled in: never null, timeout and retry always set. */
    public MessageOptions resolvedMessage() {
        return MessageOptions.fill(message, LIBRARY_MESSAGE_DEFAULTS);
    }

    /** The group's ceilings: {@code messageMax}, with unset fields taken from {@link #resolvedMessage()}. */
    public MessageOptions resolvedMessageMax() {
        MessageOptions resolved = resolvedMessage();
        return MessageOptions.fill(messageMax, new MessageOptions(null, resolved.timeout(), resolved.retry(), null));
    }

    /**
     * The options one delivery runs under: the stored message options, filled from the group's defaults,
     * clamped by its floors and ceilings, with the concurrency override applied. Always has a concurrency,
     * a timeout and a retry policy.
     */
    public MessageOptions resolve(MessageOptions stored) {
        return MessageOptions.fill(stored, resolvedMessage())
                .clamp(messageMin, resolvedMessageMax())
                .resolveConcurrency(concurrencyOverride);
    }

    public Start resolvedStart() {
        return start == null ? Start.BEGINNING : start;
    }

    public Duration resolvedExceptionInitialBackoff() {
        return Unset.or(exceptionInitialBackoff, DEFAULT_EXCEPTION_INITIAL_BACKOFF);
    }

    public int resolvedMaxRangeReclaims() {
        return Unset.or(maxRangeReclaims, DEFAULT_MAX_RANGE_RECLAIMS);
    }

    /**
     * Checks the declaration: sparse message documents, the resolved retry policy, no messageMin field
     * above the same messageMax field, durations within {@link Limits}, at least one reclaim, and binding patterns that are
     * neither blank nor hold a control character or a lone surrogate.
     *
     * @throws InvalidConfigurationException (SQL0108) listing every broken rule
     */
    public void validate() {
        Violations violations = new Violations();
        if (message != null) {
            violations.timing("message.timeout", message.timeout());
        }
        resolvedMessage().retry().collectResolvedViolations(violations, "message.retry");
        if (messageMin != null) {
            messageMin.collectViolations(violations, "messageMin");
        }
        if (messageMax != null) {
            messageMax.collectViolations(violations, "messageMax");
        }
        if (messageMin != null && messageMax != null) {
            messageMin.collectFloorViolations(violations, "messageMin", messageMax, "messageMax");
        }
        violations.timing("exceptionInitialBackoff", exceptionInitialBackoff);
        violations.atLeast("maxRangeReclaims", maxRangeReclaims, 1);
        if (bindings != null) {
            for (int i = 0; i < bindings.size(); i++) {
                String pattern = bindings.get(i);
                violations.require(pattern != null && !pattern.isBlank(), "bindings[" + i + "]", pattern,
                        "must not be empty");
                violations.require(pattern == null || Violations.storableText(pattern), "bindings[" + i + "]",
                        pattern, "must not contain control characters or lone surrogates (no routing key holds them)");
            }
        }
        violations.throwIfAny();
    }

    /** Builds a declaration field by field; unset fields stay null. */
    public static final class Builder {
        private MessageOptions message;
        private MessageOptions messageMin;
        private MessageOptions messageMax;
        private Concurrency concurrencyOverride;
        private Start start;
        private List<String> bindings;
        private Duration exceptionInitialBackoff;
        private Integer maxRangeReclaims;

        private Builder() {
        }

        public Builder message(MessageOptions message) {
            this.message = message;
            return this;
        }

        public Builder messageMin(MessageOptions messageMin) {
            this.messageMin = messageMin;
            return this;
        }

        public Builder messageMax(MessageOptions messageMax) {
            this.messageMax = messageMax;
            return this;
        }

        public Builder concurrencyOverride(Concurrency concurrencyOverride) {
            this.concurrencyOverride = concurrencyOverride;
            return this;
        }

        public Builder start(Start start) {
            this.start = start;
            return this;
        }

        public Builder bindings(List<String> bindings) {
            this.bindings = bindings;
            return this;
        }

        public Builder exceptionInitialBackoff(Duration exceptionInitialBackoff) {
            this.exceptionInitialBackoff = exceptionInitialBackoff;
            return this;
        }

        public Builder maxRangeReclaims(Integer maxRangeReclaims) {
            this.maxRangeReclaims = maxRangeReclaims;
            return this;
        }

        public ConsumerConfig build() {
            return new ConsumerConfig(message, messageMin, messageMax, concurrencyOverride, start, bindings,
                    exceptionInitialBackoff, maxRangeReclaims);
        }
    }
}
