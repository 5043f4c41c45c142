package io.sqlstreams.engine.metrics.collector;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

import io.sqlstreams.Code;
import io.sqlstreams.CompactionOptions;
import io.sqlstreams.Measurement;
import io.sqlstreams.MeasurementProducer;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.MeasurementDocument;
import io.sqlstreams.engine.metrics.MeasurementRules;
import io.sqlstreams.engine.produce.EngineProducer;

/**
 * Measurements onto {@code __system.metrics}: routing key the metric's name, message key the series key,
 * compacted with the observation time in microseconds as the rank, so a late-arriving older observation never
 * replaces a newer head. Everything is validated before the stream is touched.
 */
public final class EngineMeasurementProducer implements MeasurementProducer {
    private final Engine engine;
    private final Function<Measurement, String> rules;
    private EngineProducer<MeasurementDocument> producer;

    private EngineMeasurementProducer(Engine engine, Function<Measurement, String> rules) {
        this.engine = engine;
        this.rules = rules;
    }

    /** For user code: names under {@code sqlstreams.} are refused. */
    static EngineMeasurementProducer forUsers(Engine engine) {
        return new EngineMeasurementProducer(engine, MeasurementRules::checkUserMeasurement);
    }

    /** For the library's own measurements, whose names are under {@code sqlstreams.}. */
    public static EngineMeasurementProducer forLibrary(Engine engine) {
        return new EngineMeasurementProducer(engine, MeasurementRules::checkMeasurement);
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
            String seriesKey = rules.apply(measurement);
            Instant at = (measurement.at() == null ? now : measurement.at()).truncatedTo(ChronoUnit.MICROS);
            items.add(ProduceItem.of(MeasurementDocument.of(measurement, at), options(measurement, seriesKey, at)));
        }
        return items.isEmpty() ? List.of() : producer().produceBatch(items);
    }

    /** How an observation at {@code at} of the series {@code seriesKey} is produced onto the metrics stream. */
    static ProduceOptions options(Measurement measurement, String seriesKey, Instant at) {
        return ProduceOptions.builder()
                .routingKey(measurement.name())
                .messageKey(seriesKey)
                .compaction(CompactionOptions.withRank(ChronoUnit.MICROS.between(Instant.EPOCH, at)))
                .build();
    }

    private synchronized EngineProducer<MeasurementDocument> producer() {
        if (producer == null) {
            MetricsStream.ensure(engine);
            producer = MetricsStream.producer(engine);
        }
        return producer;
    }
}
