package io.sqlstreams.engine.metrics;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.MetricScope;
import io.sqlstreams.ResourceMetricsHandle;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.GroupQueries;
import io.sqlstreams.engine.query.MetricQueries;
import io.sqlstreams.engine.query.StreamQueries;

/** The built-in metrics of one stream, or of one consumer group when a group is named. */
public final class EngineResourceMetrics implements ResourceMetricsHandle {
    private final Engine engine;
    private final String stream;
    private final String group;
    private final StreamQueries streams;
    private final MetricQueries readings;

    private EngineResourceMetrics(Engine engine, String stream, String group) {
        this.engine = engine;
        this.stream = stream;
        this.group = group;
        this.streams = new StreamQueries(engine.sql());
        this.readings = new MetricQueries(engine.sql());
    }

    public static EngineResourceMetrics ofStream(Engine engine, String stream) {
        return new EngineResourceMetrics(engine, stream, null);
    }

    public static EngineResourceMetrics ofGroup(Engine engine, String stream, String group) {
        return new EngineResourceMetrics(engine, stream, group);
    }

    @Override
    public List<Measurement> snapshot() {
        checkNames();
        if (!engine.migrator().installed()) {
            throw StreamQueries.notFound(stream);
        }
        String what = "reading the metrics of " + describe();
        if (group == null) {
            return engine.database().inTransaction(what, connection -> BuiltInReadings.stream(stream,
                    readings.streamGauges(connection, streams.require(connection, stream).id())));
        }
        return BuiltInReadings.group(stream, engine.database().inTransaction(what, this::readGroup),
                abandonedRoutines());
    }

    /** The group's abandoned-routine figures, from what its sessions recorded. */
    private AbandonedRoutineGauges.Figures abandonedRoutines() {
        List<Measurement> sessions = new RetainedSeries(engine).latest(AbandonedRoutineGauges.SESSION_SERIES
                .withAttributes(Map.of("stream", stream, "group", group))).latest();
        return AbandonedRoutineGauges.of(sessions, engine.environment().clock().instant()).of(stream, group);
    }

    @Override
    public List<Measurement> latest() {
        checkNames();
        Map<String, String> attributes = group == null ? Map.of("stream", stream)
                : Map.of("stream", stream, "group", group);
        List<Measurement> latest = new ArrayList<>();
        for (MetricDefinition definition : BuiltInMetrics.ofScope(scope())) {
            new EngineMetricSeriesHandle(engine, definition.name(), attributes).latest().ifPresent(latest::add);
        }
        return latest;
    }

    private MetricQueries.GroupGauges readGroup(Connection connection) throws SQLException {
        Stream found = streams.require(connection, stream);
        List<MetricQueries.GroupGauges> gauges = readings.groupGauges(connection, found.id(), group);
        if (gauges.isEmpty()) {
            throw GroupQueries.notFound(stream, group);
        }
        return gauges.get(0);
    }

    private MetricScope scope() {
        return group == null ? MetricScope.STREAM : MetricScope.CONSUMER_GROUP;
    }

    private void checkNames() {
        Names.resource("stream", stream);
        if (group != null) {
            Names.resource("consumer group", group);
        }
    }

    private String describe() {
        return group == null ? "stream \"" + stream + "\""
                : "consumer group \"" + group + "\" on stream \"" + stream + "\"";
    }
}
