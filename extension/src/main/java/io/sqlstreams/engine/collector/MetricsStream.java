package io.sqlstreams.engine.collector;

import io.sqlstreams.ProducerConfig;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.MeasurementDocument;
import io.sqlstreams.engine.metrics.SystemStreams;
import io.sqlstreams.engine.produce.EngineProducer;
import io.sqlstreams.engine.produce.EngineProducerHandle;
import io.sqlstreams.engine.stream.StreamDeclaration;

/**
 * Registers {@code __system.metrics} (retention 24 h) the first time something records on it, and makes the
 * producers that record on it.
 */
final class MetricsStream {
    private MetricsStream() {
    }

    static Stream ensure(Engine engine) {
        return SystemStreams.find(engine, SystemStreams.METRICS).orElseGet(() -> new StreamDeclaration(
                engine.database(), engine.sql(), engine.migrator(), engine.diagnostics(), engine.declarer())
                .register(SystemStreams.METRICS,
                        StreamConfig.builder().retentionTtl(SystemStreams.METRICS_RETENTION).build()));
    }

    /** A producer onto {@code __system.metrics}, which must be registered. */
    static EngineProducer<MeasurementDocument> producer(Engine engine) {
        return new EngineProducerHandle<>(engine, SystemStreams.METRICS, MeasurementDocument.class)
                .register(ProducerConfig.defaults());
    }
}
