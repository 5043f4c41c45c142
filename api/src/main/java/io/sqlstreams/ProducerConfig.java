package io.sqlstreams;

import java.time.Duration;

/**
 * A producer's process-local settings; a producer has no durable row. Every field is optional.
 *
 * @param message              defaults merged under every produce's own options and written into each
 *                             message's stored options document. Default: none.
 * @param batch                automatic batching of concurrent produce calls. Default
 *                             {@link BatcherConfig#defaults()}.
 * @param slowProduceThreshold a produce taking longer logs SQL0038 (closure forms include the closure's
 *                             time). Default: off.
 */
public record ProducerConfig(MessageOptions message, BatcherConfig batch, Duration slowProduceThreshold) {

    public ProducerConfig {
        slowProduceThreshold = Unset.ifZero(slowProduceThreshold);
    }

    public static ProducerConfig defaults() {
        return new ProducerConfig(null, null, null);
    }

    public BatcherConfig resolvedBatch() {
        return batch == null ? BatcherConfig.defaults() : batch;
    }

    /** The slow-produce threshold, or {@link Duration#ZERO} when the warning is off. */
    public Duration resolvedSlowProduceThreshold() {
        return Unset.or(slowProduceThreshold, Duration.ZERO);
    }

    /**
     * Checks the message defaults, the batcher and the threshold.
     *
     * @throws InvalidConfigurationException (SQL0108) listing every broken rule
     */
    public void validate() {
        Violations violations = new Violations();
        if (message != null) {
            message.collectViolations(violations, "message");
        }
        resolvedBatch().collectViolations(violations, "batch");
        violations.timing("slowProduceThreshold", slowProduceThreshold);
        violations.throwIfAny();
    }
}
