package io.sqlstreams.engine.produce;

import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.codec.IdempotencyKeys;
import io.sqlstreams.engine.HeadersDocument;
import io.sqlstreams.engine.codec.OptionsDocument;
import io.sqlstreams.engine.telemetry.SendTrace;
import io.sqlstreams.engine.codec.PayloadCodec;

/**
 * Applies every produce-time rule before anything is written: the options after the producer's defaults
 * are merged in, the keys, and the payload's encoding (SQL0097, the value never printed).
 */
final class MessagePreparer {
    private final PayloadCodec codec;
    private final int schemaVersion;
    private final MessageOptions producerDefaults;

    MessagePreparer(PayloadCodec codec, int schemaVersion, ProducerConfig config) {
        this.codec = codec;
        this.schemaVersion = schemaVersion;
        this.producerDefaults = config.message();
    }

    /** {@code payload} ready to insert, its headers those {@code trace} gives it. */
    PreparedMessage prepare(Object payload, ProduceOptions options, SendTrace trace) {
        ProduceOptions produce = options == null ? ProduceOptions.none() : options;
        produce.validate(producerDefaults);
        if (produce.routingKey() != null) {
            Names.key("routing key", produce.routingKey());
        }
        if (produce.messageKey() != null) {
            Names.key("message key", produce.messageKey());
        }
        MessageOptions merged = MessageOptions.fill(produce.message(), producerDefaults);
        return new PreparedMessage(
                IdempotencyKeys.resolve(produce.idempotencyKey()),
                schemaVersion,
                produce.routingKey(),
                produce.messageKey(),
                produce.compacted() ? produce.compaction().rank() : null,
                codec.encode(payload),
                OptionsDocument.toJson(merged),
                HeadersDocument.toJson(trace.headers(produce.headers())));
    }
}
