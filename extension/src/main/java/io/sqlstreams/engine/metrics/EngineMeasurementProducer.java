package io.sqlstreams.engine.metrics;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.CompactionOptions;
import io.sqlstreams.Measurement;
import io.sqlstreams.MeasurementProducer;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.produce.EngineProducer;
import io.sqlstreams.engine.produce.EngineProducerHandle;

/**
 * User measurements onto {@code __system.metrics}: routing key the metric's name, message key the series key,
 * compacted with the observation time in microseconds as the rank, so a late-arriving older observation never
 * replaces a newer head. Everything is validated before the stream is touched.
 */
final class EngineMeasurementProducer implements MeasurementProducer {
    private final Engine engine;
    private EngineProducer<MeasurementDocument> producer;

    EngineMeasurementProducer(Engine engine) {
        this.engine = engine;
    }

    @Override
    public ProduceResult produce(Measurement measurement) {
        return produceBatch(Collections.singletonList(measurement)).get(0);
    }

    @Override
    public List<ProduceResult> produceBatch(List<Measurement> measurements) {
        if (measurements == null) {
            throw new SqlStreamsException(Code.SQL0145, "a list of measurements is required (empty for none)");
        }
        Instant now = engine.environment().clock().instant();
        List<ProduceItem<MeasurementDocument>> items = new ArrayList<>(measurements.size());
        for (Measurement measurement : measurements) {
            String seriesKey = MeasurementRules.checkUserMeasurement(measurement);
            Instant at = (measurement.at() == null ? now : measurement.at()).truncatedTo(ChronoUnit.MICROS);
            items.add(ProduceItem.of(MeasurementDocument.of(measurement, at), ProduceOptions.builder()
                    .routingKey(measurement.name())
                    .messageKey(seriesKey)
                    .compaction(CompactionOptions.withRank(ChronoUnit.MICROS.between(Instant.EPOCH, at)))
                    .build()));
        }
        return items.isEmpty() ? List.of() : producer().produceBatch(items);
    }

    private synchronized EngineProducer<MeasurementDocument> producer() {
        if (producer == null) {
            SystemStreams.ensureMetrics(engine);
            producer = new EngineProducerHandle<>(engine, SystemStreams.METRICS, MeasurementDocument.class)
                    .register(ProducerConfig.defaults());
        }
        return producer;
    }
}
