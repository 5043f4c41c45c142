package io.sqlstreams.engine.metrics;

import java.io.StringReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.engine.query.MetricQueries.GroupGauges;
import io.sqlstreams.engine.query.MetricQueries.StreamGauges;
import io.sqlstreams.engine.query.MetricQueries.SystemGauges;
import jakarta.json.Json;

/** Live readings turned into the built-in measurements of their scope. */
public final class BuiltInReadings {
    /** The metadata key of the partition-count measurement saying whether the stream is compacted. */
    public static final String COMPACTION_STATUS = "compaction_status";
    public static final String COMPACTED = "compacted";
    public static final String NOT_COMPACTED = "not_compacted";
    /** The metadata key of the unclaimed-workers measurement listing them, each as its worker and group names. */
    public static final String UNCLAIMED_WORKERS = "workers";

    private BuiltInReadings() {
    }

    /** The installation's worker and schedule gauges. */
    public static List<Measurement> system(SystemGauges gauges) {
        Reading reading = new Reading(Map.of(), gauges.observedAt());
        reading.add(Code.SQL0067, gauges.unclaimedWorkers());
        reading.add(Code.SQL0068, seconds(gauges.oldestUnclaimedMillis()));
        reading.add(Code.SQL0069, gauges.failingWorkers());
        reading.add(Code.SQL0070, gauges.overdueSchedules());
        reading.add(Code.SQL0071, seconds(gauges.oldestDueMillis()));
        reading.add(Code.SQL0072, gauges.suspendedSchedules());
        return reading.measurements;
    }

    /** How many alerts' newest reports on {@code __system.alerts} are active, and how many resolved. */
    public static List<Measurement> alerts(long active, long resolved, Instant observedAt) {
        Reading reading = new Reading(Map.of(), observedAt);
        reading.add(Code.SQL0073, active);
        reading.add(Code.SQL0074, resolved);
        return reading.measurements;
    }

    /** The collector's pass that ended at {@code completed}: its time in Unix seconds. */
    public static Measurement collectorCompleted(Instant completed) {
        Reading reading = new Reading(Map.of(), completed);
        reading.add(Code.SQL0100, completed.toEpochMilli() / 1000.0);
        return reading.measurements.get(0);
    }

    public static List<Measurement> stream(String stream, StreamGauges gauges) {
        Reading reading = new Reading(Map.of("stream", stream), gauges.observedAt());
        reading.add(Code.SQL0079, gauges.compacted() ? 1 : 0);
        reading.add(Code.SQL0098, gauges.partitions(), Json.createObjectBuilder()
                .add(COMPACTION_STATUS, gauges.compacted() ? COMPACTED : NOT_COMPACTED).build().toString());
        reading.add(Code.SQL0099, gauges.unclaimedWorkers(), Json.createObjectBuilder()
                .add(UNCLAIMED_WORKERS, Json.createReader(new StringReader(gauges.unclaimedWorkerNames())).readArray())
                .build().toString());
        reading.add(Code.SQL0161, seconds(gauges.fenceHeldMillis()));
        return reading.measurements;
    }

    /** A group's gauges: those read from its tables, and the abandoned-routine figures its sessions recorded. */
    public static List<Measurement> group(String stream, GroupGauges gauges, AbandonedRoutineGauges.Figures abandoned) {
        Reading reading = new Reading(Map.of("stream", stream, "group", gauges.group()), gauges.observedAt());
        reading.add(Code.SQL0080, gauges.head());
        reading.add(Code.SQL0081, gauges.claimed());
        reading.add(Code.SQL0082, gauges.committed());
        reading.add(Code.SQL0083, Math.max(0, gauges.head() - gauges.committed()));
        reading.add(Code.SQL0084, Math.max(0, gauges.claimed() - gauges.committed()));
        reading.add(Code.SQL0085, gauges.ready());
        reading.add(Code.SQL0086, gauges.inflight());
        reading.add(Code.SQL0087, gauges.deferred());
        reading.add(Code.SQL0088, gauges.dead());
        reading.add(Code.SQL0089, seconds(gauges.oldestUnresolvedMillis()));
        reading.add(Code.SQL0090, gauges.openLeases());
        reading.add(Code.SQL0091, abandoned.outstanding());
        reading.add(Code.SQL0092, abandoned.total());
        reading.add(Code.SQL0093, seconds(abandoned.selfClearLatencyAvgMillis()));
        reading.add(Code.SQL0155, gauges.liveInstances());
        return reading.measurements;
    }

    /** {@code amount} more of a consume session's counter {@code code} (SQL0042–SQL0051), to add to its series. */
    public static Measurement sessionCounterAmount(Code code, long amount, Map<String, String> sessionAttributes) {
        Reading reading = new Reading(sessionAttributes, null);
        reading.add(code, amount);
        return reading.measurements.get(0);
    }

    /** A duration read in milliseconds, in seconds: the unit of every built-in duration gauge. */
    private static double seconds(double millis) {
        return millis / 1000.0;
    }

    private static final class Reading {
        private final Map<String, String> attributes;
        private final Instant at;
        private final List<Measurement> measurements = new ArrayList<>();

        Reading(Map<String, String> attributes, Instant at) {
            this.attributes = attributes;
            this.at = at;
        }

        void add(Code code, double value) {
            add(code, value, null);
        }

        void add(Code code, double value, String metadata) {
            MetricDefinition definition = BuiltInMetrics.of(code);
            measurements.add(new Measurement(definition.name(), definition.kind(), value, definition.unit(),
                    attributes, at, metadata));
        }
    }
}
