package io.sqlstreams.engine.metrics.collector;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

import io.sqlstreams.Measurement;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.SessionCounterStore;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.AbandonedRoutineDetail;
import io.sqlstreams.engine.metrics.MeasurementDocument;
import io.sqlstreams.engine.metrics.MeasurementRules;
import io.sqlstreams.engine.metrics.SystemStreams;
import io.sqlstreams.engine.produce.EngineProducer;
import io.sqlstreams.engine.query.KeyQueries;
import io.sqlstreams.engine.query.StreamQueries;

/**
 * Adds the consume sessions' counter amounts to their series on {@code __system.metrics}. Each series' compaction
 * head is locked for the transaction (series in key order, so two writers never wait on each other in a circle)
 * and read there, so sessions that share a series add up rather than overwrite each other. A new observation is
 * stamped at least a microsecond after the head's, so that it becomes the head even when this host's clock is
 * behind the one that wrote the head. The abandoned-routine detail an amount carries is merged into its series'
 * metadata under the same lock. The commit is not announced to the stream's idle sessions: a session's last
 * flush comes after it stopped, when it should start no thread, so consumers of the metrics stream find these
 * observations at their next poll.
 */
public final class SessionCounterWriter implements SessionCounterStore.Writer {
    private static final Predicate<Duration> ONE_ATTEMPT = delay -> false;

    private final Engine engine;
    private final StreamQueries streams;
    private final KeyQueries keys;
    private Target target;

    public SessionCounterWriter(Engine engine) {
        this.engine = engine;
        this.streams = new StreamQueries(engine.sql());
        this.keys = new KeyQueries(engine.sql());
    }

    @Override
    public Map<String, Double> add(List<Measurement> amounts, Map<String, Double> floors) {
        Map<String, Measurement> bySeries = new TreeMap<>();
        amounts.forEach(amount -> bySeries.put(MeasurementRules.checkMeasurement(amount), amount));
        if (bySeries.isEmpty()) {
            return Map.of();
        }
        Target metrics = target();
        return engine.database().inTransaction("recording session counters", ONE_ATTEMPT, connection -> {
            Map<String, Double> totals = new TreeMap<>();
            for (Map.Entry<String, Measurement> series : bySeries.entrySet()) {
                totals.put(series.getKey(), add(connection, metrics, series.getKey(), series.getValue(),
                        floors.getOrDefault(series.getKey(), 0.0)));
            }
            return totals;
        });
    }

    /** Adds {@code amount} to its series under the series' lock; returns the total recorded. */
    private double add(Connection connection, Target metrics, String seriesKey, Measurement amount, double floor)
            throws SQLException {
        keys.lockCompactionHead(connection, metrics.streamId(), seriesKey);
        Optional<Measurement> head = keys.compactionHead(connection, metrics.streamId(), seriesKey)
                .map(row -> engine.codec().decode(row.payload(), MeasurementDocument.class).toMeasurement());
        double total = Math.max(head.map(Measurement::value).orElse(0.0), floor) + amount.value();
        Instant now = engine.environment().clock().instant().truncatedTo(ChronoUnit.MICROS);
        Instant at = head.map(newest -> newest.at().plus(1, ChronoUnit.MICROS)).filter(now::isBefore).orElse(now);
        Measurement recorded = new Measurement(amount.name(), amount.kind(), total, amount.unit(),
                amount.attributes(), at, metadata(head, amount, at));
        metrics.producer().produce(connection, MeasurementDocument.of(recorded, at),
                EngineMeasurementProducer.options(recorded, seriesKey, at));
        return total;
    }

    /**
     * An amount's metadata is an {@link AbandonedRoutineDetail} to add to the one its series holds; an amount
     * without any leaves the series' metadata as it is.
     */
    private static String metadata(Optional<Measurement> head, Measurement amount, Instant at) {
        String held = head.map(Measurement::metadata).orElse(null);
        if (amount.metadata() == null) {
            return held;
        }
        return AbandonedRoutineDetail.parse(held).plus(AbandonedRoutineDetail.parse(amount.metadata()), at)
                .toMetadata();
    }

    /**
     * The metrics stream and a producer onto it, found (in one attempt, so that an unreachable database fails
     * fast) or registered on first use.
     */
    private synchronized Target target() {
        if (target == null) {
            Stream stream = engine.database().autoCommit("finding " + SystemStreams.METRICS, ONE_ATTEMPT,
                    connection -> streams.find(connection, SystemStreams.METRICS))
                    .orElseGet(() -> MetricsStream.ensure(engine));
            target = new Target(stream.id(), MetricsStream.producer(engine));
        }
        return target;
    }

    private record Target(long streamId, EngineProducer<MeasurementDocument> producer) {
    }
}
