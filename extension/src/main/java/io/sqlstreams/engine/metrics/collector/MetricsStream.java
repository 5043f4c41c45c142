package io.sqlstreams.engine.metrics.collector;

import io.sqlstreams.ProducerConfig;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.MeasurementDocument;
import io.sqlstreams.engine.metrics.SystemStreams;
import io.sqlstreams.engine.produce.EngineProducer;
import io.sqlstreams.engine.produce.EngineProducerHandle;

/**
 * Registers {@code __system.metrics} (retention 24 h) the first time something records on it, and makes the
 * producers that record on it.
 */
final class MetricsStream {
    private MetricsStream() {
    }

    static Stream ensure(Engine engine) {
        return SystemStreamDeclaration.ensure(engine, SystemStreams.METRICS, SystemStreams.METRICS_RETENTION);
    }

    /** A producer onto {@code __system.metrics}, which must be registered. */
    static EngineProducer<MeasurementDocument> producer(Engine engine) {
        return new EngineProducerHandle<>(engine, SystemStreams.METRICS, MeasurementDocument.class)
                .register(ProducerConfig.defaults());
    }
}
