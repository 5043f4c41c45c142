package io.sqlstreams;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Options of one produce. Every field is optional; an empty key is the same as none.
 *
 * @param routingKey     matched against consumer groups' bindings; a message without one reaches only
 *                       groups that declared no binding.
 * @param messageKey     the entity the message is about; read by compaction and by the exclusive and
 *                       ordered policies. Treated as an identifier (it may appear in logs; the payload never does).
 * @param compaction     makes the message a version of its message key; requires {@code messageKey}.
 * @param idempotencyKey dedups retries across restarts: a UUID is used as it is, any other text is
 *                       turned into a name-based UUID, and none mints a fresh one per call. A given key
 *                       takes the call out of automatic batching.
 * @param message        the message's own options request, merged over the producer's defaults.
 * @param headers        text attributes stored with the message and handed to its handlers as
 *                       {@link MessageMeta#headers()}, in the limits of {@link MessageHeaders}; null is none.
 *                       With tracing on, the library adds the W3C {@code traceparent} and {@code tracestate}.
 */
public record ProduceOptions(String routingKey, String messageKey, CompactionOptions compaction,
                             String idempotencyKey, MessageOptions message, Map<String, String> headers) {

    public ProduceOptions {
        routingKey = emptyToNull(routingKey);
        messageKey = emptyToNull(messageKey);
        idempotencyKey = emptyToNull(idempotencyKey);
        headers = MessageHeaders.copyOf(headers);
    }

    /** Options without headers. */
    public ProduceOptions(String routingKey, String messageKey, CompactionOptions compaction, String idempotencyKey,
                          MessageOptions message) {
        this(routingKey, messageKey, compaction, idempotencyKey, message, null);
    }

    public static ProduceOptions none() {
        return new ProduceOptions(null, null, null, null, null, null);
    }

    /** These options with {@code headers} in place of their own. */
    public ProduceOptions withHeaders(Map<String, String> headers) {
        return new ProduceOptions(routingKey, messageKey, compaction, idempotencyKey, message, headers);
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean compacted() {
        return compaction != null && compaction.enable();
    }

    /**
     * The produce-time rules, checked after the producer's defaults are merged in (so a producer-level
     * default policy counts): an exclusive or ordered policy needs a message key; ordered cannot be
     * combined with compaction; compaction needs a message key; disabled compaction cannot carry a rank;
     * the merged message options must be valid.
     *
     * @param producerDefaults the producer's {@link ProducerConfig#message()}, may be null
     * @throws SqlStreamsException SQL0153 when the headers break a rule of {@link MessageHeaders}
     * @throws InvalidConfigurationException (SQL0108) listing every broken rule
     */
    public void validate(MessageOptions producerDefaults) {
        MessageHeaders.check(headers);
        Violations violations = new Violations();
        MessageOptions merged = MessageOptions.fill(message, producerDefaults);
        Concurrency policy = merged == null ? null : merged.concurrency();
        if (policy != null && policy.holdsKey()) {
            violations.require(messageKey != null, "message.concurrency", policy.wireName(),
                    "needs a message key");
        }
        if (compacted()) {
            violations.require(policy != Concurrency.ORDERED, "compaction", compaction,
                    "cannot be combined with the ordered policy");
            violations.require(messageKey != null, "compaction", compaction, "needs a message key");
        } else if (compaction != null) {
            violations.require(compaction.rank() == 0, "compaction.rank", compaction.rank(),
                    "must be 0 while compaction is disabled (use CompactionOptions.withRank)");
        }
        if (merged != null) {
            merged.collectViolations(violations, "message");
        }
        violations.throwIfAny();
    }

    private static String emptyToNull(String text) {
        return text == null || text.isEmpty() ? null : text;
    }

    /** Builds produce options; unset fields stay null. */
    public static final class Builder {
        private String routingKey;
        private String messageKey;
        private CompactionOptions compaction;
        private String idempotencyKey;
        private MessageOptions message;
        private final Map<String, String> headers = new LinkedHashMap<>();

        private Builder() {
        }

        public Builder routingKey(String routingKey) {
            this.routingKey = routingKey;
            return this;
        }

        public Builder messageKey(String messageKey) {
            this.messageKey = messageKey;
            return this;
        }

        public Builder compaction(CompactionOptions compaction) {
            this.compaction = compaction;
            return this;
        }

        public Builder idempotencyKey(String idempotencyKey) {
            this.idempotencyKey = idempotencyKey;
            return this;
        }

        public Builder message(MessageOptions message) {
            this.message = message;
            return this;
        }

        /** Adds (or replaces) one header. */
        public Builder header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        /** Adds (or replaces) every header of {@code headers}. */
        public Builder headers(Map<String, String> headers) {
            this.headers.putAll(headers);
            return this;
        }

        public ProduceOptions build() {
            return new ProduceOptions(routingKey, messageKey, compaction, idempotencyKey, message, headers);
        }
    }
}
