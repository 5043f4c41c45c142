package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.engine.HostName;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.AbandonedRoutineDetail;
import io.sqlstreams.engine.metrics.BuiltInReadings;

/**
 * Records a session's counters as the series SQL0042–SQL0051 on {@code __system.metrics}, with the attributes
 * {@code stream}, {@code group}, {@code version} (the payload schema version the session consumes) and
 * {@code session} (this host's name, so that a session restarted on the same host continues its series). Each
 * flush adds what a counter gained since the last recorded flush to its series' newest retained total, or to the
 * total this flusher last recorded if that one is gone meanwhile; a counter that did not move writes nothing. A
 * failed flush logs SQL0146 and records nothing, so the next one adds everything still owed. The abandoned-routine
 * counter (SQL0050) carries the session's {@link AbandonedRoutineDetail} as metadata; while any of its abandoned
 * routines is still running it is rewritten at every flush, so that its outstanding count stays fresh.
 */
final class SessionCounterFlusher {
    /** How often a running session flushes; the metrics collector's default period too. */
    static final Duration PERIOD = Duration.ofSeconds(30);

    private final Engine engine;
    private final RegisteredGroup group;
    private final String sessionId;
    private final SessionCounterSet counters;
    private final Map<String, String> attributes;
    private final Map<Code, Long> recorded = new EnumMap<>(Code.class);
    private final Map<String, Double> recordedTotals = new HashMap<>();
    private long recordedCleared;
    private long recordedClearMillis;
    private long recordedOutstanding;

    SessionCounterFlusher(Engine engine, RegisteredGroup group, int schemaVersion, String sessionId,
                          SessionCounterSet counters) {
        this.engine = engine;
        this.group = group;
        this.sessionId = sessionId;
        this.counters = counters;
        this.attributes = Map.of("stream", group.streamName(), "group", group.groupName(),
                "version", Integer.toString(schemaVersion), "session", HostName.current());
    }

    /** Records what the counters gained since the last recorded flush; never throws. */
    synchronized void flush() {
        Map<Code, Long> totals = counters.metricTotals();
        long cleared = counters.abandonedCleared.sum();
        long clearMillis = counters.abandonedClearMillis.sum();
        long outstanding = counters.abandonedOutstanding.sum();
        List<Measurement> amounts = new ArrayList<>();
        totals.forEach((code, total) -> {
            long gained = total - recorded.getOrDefault(code, 0L);
            if (code == Code.SQL0050) {
                if (gained > 0 || cleared > recordedCleared || outstanding > 0 || outstanding != recordedOutstanding) {
                    amounts.add(BuiltInReadings.sessionCounterAmount(code, gained, attributes).withMetadata(
                            AbandonedRoutineDetail.delta(cleared - recordedCleared, clearMillis - recordedClearMillis,
                                    sessionId, outstanding, engine.environment().clock().instant()).toMetadata()));
                }
            } else if (gained > 0) {
                amounts.add(BuiltInReadings.sessionCounterAmount(code, gained, attributes));
            }
        });
        if (amounts.isEmpty()) {
            return;
        }
        try {
            recordedTotals.putAll(engine.sessionCounters().add(amounts, Map.copyOf(recordedTotals)));
            recorded.putAll(totals);
            recordedCleared = cleared;
            recordedClearMillis = clearMillis;
            recordedOutstanding = outstanding;
        } catch (RuntimeException failed) {
            engine.diagnostics().event(Code.SQL0146, "the counters of session " + sessionId + " of "
                    + group.describe() + " were not recorded; the next flush adds them: " + failed.getMessage());
        }
    }
}
