package io.sqlstreams.engine.metrics.collector;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.AbandonedRoutineGauges;
import io.sqlstreams.engine.metrics.BuiltInMetrics;
import io.sqlstreams.engine.metrics.BuiltInReadings;
import io.sqlstreams.engine.metrics.RetainedSeries;
import io.sqlstreams.engine.metrics.SystemStreams;
import io.sqlstreams.engine.query.AlertQueries;
import io.sqlstreams.engine.query.MetricQueries;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.worker.WorkerTask;

/**
 * One pass of the system's {@code metrics_collector}: reads the built-in gauges of the installation, of every
 * stream and of every consumer group (each stream in one short transaction of its own), with each group's
 * abandoned-routine figures summed from its sessions' series (one read for all groups), records them all on
 * {@code __system.metrics} in one transaction, and only then records
 * {@code sqlstreams.metrics.collector.completed_timestamp}. A stream destroyed during the pass is left out; any
 * other failure fails the pass, which records nothing.
 */
public final class MetricsCollector implements WorkerTask {
    private final Engine engine;
    private final StreamQueries streams;
    private final MetricQueries readings;
    private final AlertQueries alerts;
    private final EngineMeasurementProducer recorder;
    private final RetainedSeries sessions;

    public MetricsCollector(Engine engine) {
        this.engine = engine;
        this.streams = new StreamQueries(engine.sql());
        this.readings = new MetricQueries(engine.sql());
        this.alerts = new AlertQueries(engine.sql());
        this.recorder = EngineMeasurementProducer.forLibrary(engine);
        this.sessions = new RetainedSeries(engine);
    }

    @Override
    public void tick() {
        List<Measurement> measurements = new ArrayList<>(BuiltInReadings.system(engine.database()
                .autoCommit("reading the installation's worker metrics", readings::systemGauges)));
        List<Stream> all = engine.database().autoCommit("listing streams for the metrics collector", streams::all);
        AbandonedRoutineGauges abandoned = AbandonedRoutineGauges.of(sessions.latest(AbandonedRoutineGauges.SESSION_SERIES).latest(),
                engine.environment().clock().instant());
        for (Stream stream : all) {
            measurements.addAll(streamReadings(stream, abandoned));
            if (stream.name().equals(SystemStreams.ALERTS)) {
                measurements.addAll(alertReadings(stream));
            }
        }
        recorder.produceBatch(measurements);
        recorder.produce(BuiltInReadings.collectorCompleted(engine.environment().clock().instant()));
    }

    private List<Measurement> alertReadings(Stream alertsStream) {
        return engine.database().autoCommit("counting recorded alerts", connection -> {
            AlertQueries.AlertCounts counts = alerts.countsByStatus(connection, alertsStream.id());
            return BuiltInReadings.alerts(counts.active(), counts.resolved(), engine.environment().clock().instant());
        });
    }

    private List<Measurement> streamReadings(Stream stream, AbandonedRoutineGauges abandoned) {
        return engine.database().inTransaction("reading the metrics of stream \"" + stream.name() + "\"",
                connection -> {
                    Optional<Stream> present = streams.find(connection, stream.id());
                    if (present.isEmpty()) {
                        return List.of();
                    }
                    String name = present.get().name();
                    List<Measurement> found = new ArrayList<>(BuiltInReadings.stream(name,
                            readings.streamGauges(connection, stream.id())));
                    for (MetricQueries.GroupGauges group : readings.groupGauges(connection, stream.id(), null)) {
                        found.addAll(BuiltInReadings.group(name, group, abandoned.of(name, group.group())));
                    }
                    return found;
                });
    }
}
