package io.sqlstreams.engine.metrics;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricSeriesHandle;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.KeyQueries;
import io.sqlstreams.engine.query.StreamQueries;

/** One series on {@code __system.metrics}: its compaction head and its retained messages, each in one read. */
public final class EngineMetricSeriesHandle implements MetricSeriesHandle {
    private final Engine engine;
    private final String name;
    private final Map<String, String> attributes;
    private final StreamQueries streams;
    private final KeyQueries keys;

    public EngineMetricSeriesHandle(Engine engine, String name, Map<String, String> attributes) {
        this.engine = engine;
        this.name = name;
        Map<String, String> sorted = new TreeMap<>(Comparator.nullsFirst(Comparator.<String>naturalOrder()));
        if (attributes != null) {
            sorted.putAll(attributes);
        }
        this.attributes = Collections.unmodifiableMap(sorted);
        this.streams = new StreamQueries(engine.sql());
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
        return read("reading the newest measurement of series " + seriesKey, (connection, streamId) ->
                keys.compactionHead(connection, streamId, seriesKey).map(this::decode))
                .flatMap(head -> head);
    }

    @Override
    public List<Measurement> history(int limit) {
        String seriesKey = MeasurementRules.checkSeries(name, attributes);
        if (limit < 1) {
            throw new InvalidConfigurationException(List.of(
                    new InvalidConfigurationException.Violation("limit", limit, "must be positive")));
        }
        return read("reading the measurements of series " + seriesKey, (connection, streamId) ->
                keys.messages(connection, streamId, seriesKey, limit).stream().map(this::decode)
                        .toList()).orElse(List.of());
    }

    /** {@code read} on {@code __system.metrics} in one autocommit unit; empty while that stream does not exist. */
    private <R> Optional<R> read(String what, StreamRead<R> read) {
        if (!engine.migrator().installed()) {
            return Optional.empty();
        }
        return engine.database().autoCommit(what, connection -> {
            Optional<Stream> stream = streams.find(connection, SystemStreams.METRICS);
            return stream.isEmpty() ? Optional.<R>empty() : Optional.of(read.apply(connection, stream.get().id()));
        });
    }

    private Measurement decode(KeyQueries.KeyedMessage row) {
        return engine.codec().decode(row.payload(), MeasurementDocument.class).toMeasurement();
    }

    @FunctionalInterface
    private interface StreamRead<R> {
        R apply(Connection connection, long streamId) throws SQLException;
    }
}
