package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.Measurement;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.SessionCounterStore;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.MeasurementRules;
import io.sqlstreams.engine.wakeup.Wakeups;
import io.sqlstreams.testing.RecordingLogger;

/** What a flush hands the store, and what a failed one leaves for the next: no database, a scripted store. */
class SessionCounterFlusherTest {
    private final RecordingLogger logger = new RecordingLogger();
    private final ScriptedWriter writer = new ScriptedWriter();
    private final SessionCounterSet counters = new SessionCounterSet();
    private final SessionCounterFlusher flusher = flusher();

    @Test
    void onlyTheCountersThatMovedAreHandedOnAndNothingWhenNoneDid() {
        flusher.flush();
        assertThat(writer.calls).as("nothing counted yet").isEmpty();

        counters.success.add(3);
        counters.claimed.add(4);
        flusher.flush();
        flusher.flush();
        counters.success.increment();
        flusher.flush();

        assertThat(writer.calls).hasSize(2);
        assertThat(writer.calls.get(0)).containsOnly(Map.entry("sqlstreams.consumer.session.claimed", 4.0),
                Map.entry("sqlstreams.consumer.session.success", 3.0));
        assertThat(writer.calls.get(1)).containsOnly(Map.entry("sqlstreams.consumer.session.success", 1.0));
        assertThat(writer.floors.get(1)).as("the totals recorded before").containsValues(3.0, 4.0);
    }

    @Test
    void aFailedFlushLogsAWarningAndTheNextOneAddsEverythingStillOwed() {
        counters.dead.add(2);
        writer.failNext = true;
        flusher.flush();

        assertThat(logger.withCode(Code.SQL0146.id())).singleElement().asString()
                .contains("session s-1", "the next flush adds them", "the database is down");
        counters.dead.increment();
        flusher.flush();

        assertThat(writer.calls).hasSize(2);
        assertThat(writer.calls.get(1)).containsOnly(Map.entry("sqlstreams.consumer.session.dead", 3.0));
    }

    private SessionCounterFlusher flusher() {
        SessionCounterStore store = new SessionCounterStore();
        store.connect(writer);
        Engine engine = new Engine(ClientConfig.defaults(), null, null, null,
                new Diagnostics(logger, Clock.systemUTC()), null,
                new EngineEnvironment(null, null, Clock.systemUTC(), null), null, null, null, Wakeups.disabled(),
                store);
        return new SessionCounterFlusher(engine, new RegisteredGroup(1, "orders", 2, "billing", DeliveryLogMode.OFF),
                1, "s-1", counters);
    }

    /** Records each call's amounts by metric name; sums them the way the real writer does, without a database. */
    private static final class ScriptedWriter implements SessionCounterStore.Writer {
        final List<Map<String, Double>> calls = new ArrayList<>();
        final List<Map<String, Double>> floors = new ArrayList<>();
        final Map<String, Double> retained = new HashMap<>();
        boolean failNext;

        @Override
        public Map<String, Double> add(List<Measurement> amounts, Map<String, Double> floor) {
            Map<String, Double> byName = new HashMap<>();
            amounts.forEach(amount -> byName.put(amount.name(), amount.value()));
            calls.add(byName);
            floors.add(floor);
            if (failNext) {
                failNext = false;
                throw new SqlStreamsException(Code.SQL0110, "the database is down");
            }
            Map<String, Double> totals = new HashMap<>();
            for (Measurement amount : amounts) {
                String series = MeasurementRules.checkMeasurement(amount);
                totals.put(series, retained.merge(series, amount.value(), Double::sum));
            }
            return totals;
        }
    }
}
