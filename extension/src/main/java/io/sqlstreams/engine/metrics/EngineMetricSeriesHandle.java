package io.sqlstreams.engine.metrics;

import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricSeriesHandle;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StoredMessage;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.key.EngineKeyHandle;

/** One series on {@code __system.metrics}: its compaction head and its retained messages. */
final class EngineMetricSeriesHandle implements MetricSeriesHandle {
    private final Engine engine;
    private final String name;
    private final Map<String, String> attributes;

    EngineMetricSeriesHandle(Engine engine, String name, Map<String, String> attributes) {
        this.engine = engine;
        this.name = name;
        Map<String, String> sorted = new TreeMap<>(Comparator.nullsFirst(Comparator.<String>naturalOrder()));
        if (attributes != null) {
            sorted.putAll(attributes);
        }
        this.attributes = Collections.unmodifiableMap(sorted);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Map<String, String> attributes() {
        return attributes;
    }

    @Override
    public Optional<Measurement> latest() {
        EngineKeyHandle<MeasurementDocument> series = series();
        if (SystemStreams.find(engine, SystemStreams.METRICS).isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(series.compactionHead().message().toMeasurement());
        } catch (SqlStreamsException failure) {
            if (failure.code() == Code.SQL0066) {
                return Optional.empty();
            }
            throw failure;
        }
    }

    @Override
    public List<Measurement> history(int limit) {
        EngineKeyHandle<MeasurementDocument> series = series();
        if (limit < 1) {
            throw new InvalidConfigurationException(List.of(
                    new InvalidConfigurationException.Violation("limit", limit, "must be positive")));
        }
        if (SystemStreams.find(engine, SystemStreams.METRICS).isEmpty()) {
            return List.of();
        }
        return series.messages(limit).stream().map(StoredMessage::message).map(MeasurementDocument::toMeasurement)
                .toList();
    }

    private EngineKeyHandle<MeasurementDocument> series() {
        String seriesKey = MeasurementRules.checkSeries(name, attributes);
        return new EngineKeyHandle<>(engine, SystemStreams.METRICS, MeasurementDocument.class, seriesKey);
    }
}
