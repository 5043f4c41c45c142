package io.sqlstreams.engine.metrics;

import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricSeriesHandle;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.KeyQueries;

/** One series on {@code __system.metrics}: its compaction head and its retained messages, each in one read. */
public final class EngineMetricSeriesHandle implements MetricSeriesHandle {
    private final String name;
    private final Map<String, String> attributes;
    private final RetainedMeasurements retained;
    private final KeyQueries keys;

    public EngineMetricSeriesHandle(Engine engine, String name, Map<String, String> attributes) {
        this.name = name;
        Map<String, String> sorted = new TreeMap<>(Comparator.nullsFirst(Comparator.<String>naturalOrder()));
        if (attributes != null) {
            sorted.putAll(attributes);
        }
        this.attributes = Collections.unmodifiableMap(sorted);
        this.retained = new RetainedMeasurements(engine);
        this.keys = new KeyQueries(engine.sql());
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
        String seriesKey = MeasurementRules.checkSeries(name, attributes);
        return retained.read("reading the newest measurement of series " + seriesKey, (connection, streamId) ->
                keys.compactionHead(connection, streamId, seriesKey).map(retained::decode))
                .flatMap(head -> head);
    }

    @Override
    public List<Measurement> history(int limit) {
        String seriesKey = MeasurementRules.checkSeries(name, attributes);
        if (limit < 1) {
            throw new InvalidConfigurationException(List.of(
                    new InvalidConfigurationException.Violation("limit", limit, "must be positive")));
        }
        return retained.read("reading the measurements of series " + seriesKey, (connection, streamId) ->
                keys.messages(connection, streamId, seriesKey, limit).stream().map(retained::decode)
                        .toList()).orElse(List.of());
    }

}
