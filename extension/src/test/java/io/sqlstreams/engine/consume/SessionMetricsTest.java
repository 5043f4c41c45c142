package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Measurement;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.MetricSeriesHandle;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SessionCounters;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.HostName;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.engine.metrics.AbandonedRoutineDetail;
import io.sqlstreams.engine.metrics.collector.MetricsCollector;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * A session's counters on {@code __system.metrics} (SQL0042–SQL0051): recorded at stop, continued by the next
 * session on the same host, summed over sessions that share a host, and written only for the counters that moved.
 */
@PostgresTest
class SessionMetricsTest {
    private static final String GROUP = "tally";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final MessageHandler<Numbered> SUCCEED = payload -> {
    };

    private Rig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "session-metrics");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /**
     * An ordered group: payload 1 fails once (a ready row), payload 2 waits behind it (deferred), payload 4 is
     * terminal (dead), the rest succeed.
     */
    @Test
    void aStoppedSessionLeavesExactlyItsCountersOnItsSeries() throws Exception {
        ConsumerInstance<Numbered> instance = rig.register(GROUP, ConsumerConfig.builder()
                .concurrencyOverride(Concurrency.ORDERED)
                .exceptionInitialBackoff(Duration.ofMillis(10))
                .message(MessageOptions.builder().timeout(Duration.ofSeconds(5)).retry(RetryPolicy.builder()
                        .maxRetries(3).baseDelay(Duration.ofMillis(10)).maxDelay(Duration.ofMillis(50)).build())
                        .build())
                .build());
        try (Producer<Numbered> producer = rig.stream.producer().register()) {
            List<String> keys = List.of("k", "k", "a", "b", "c");
            for (int n = 1; n <= keys.size(); n++) {
                producer.produce(new Numbered(n), ProduceOptions.builder().messageKey(keys.get(n - 1)).build());
            }
        }
        Set<Long> failedOnce = ConcurrentHashMap.newKeySet();
        ConsumerSession session = runUntil(instance, payload -> {
            if (payload.n() == 1 && failedOnce.add(payload.n())) {
                throw new IllegalStateException("the first run of 1 fails");
            }
            if (payload.n() == 4) {
                throw Outcome.terminal("4 cannot succeed");
            }
        }, 10, counted -> counted.success() == 4 && counted.dead() == 1);

        SessionCounters counted = session.counters();
        assertThat(counted.claimed()).isEqualTo(5);
        assertThat(counted.ready()).as("the failed first run of 1").isPositive();
        assertThat(counted.deferred()).as("2 waiting behind 1").isPositive();
        byMetric(counted).forEach((name, total) -> assertThat(latest(name)).as(name)
                .isEqualTo(total == 0 ? Optional.empty() : Optional.of((double) total)));
    }

    @Test
    void aRestartedSessionContinuesItsSeriesAndRewritesOnlyTheCountersThatMoved() throws Exception {
        ConsumerInstance<Numbered> first = rig.register(GROUP, ConsumerConfig.defaults());
        rig.produceNumbered(3);
        runUntil(first, payload -> {
            if (payload.n() == 3) {
                throw Outcome.terminal("3 cannot succeed");
            }
        }, 1, counted -> counted.success() == 2 && counted.dead() == 1);
        assertThat(latest("sqlstreams.consumer.session.success")).contains(2.0);
        assertThat(latest("sqlstreams.consumer.session.dead")).contains(1.0);
        int deadWrites = series("sqlstreams.consumer.session.dead").history(100).size();
        int successWrites = series("sqlstreams.consumer.session.success").history(100).size();

        StreamHandle<Numbered> restarted = rig.streamOfAnotherClient(new RecordingLogger());
        ConsumerInstance<Numbered> second = restarted.consumer(GROUP).register(ConsumerConfig.defaults());
        rig.produce(4);
        rig.produce(5);
        runUntil(second, SUCCEED, 1, counted -> counted.success() == 2);

        assertThat(latest("sqlstreams.consumer.session.success")).as("2 before the restart and 2 after").contains(4.0);
        assertThat(latest("sqlstreams.consumer.session.claimed")).contains(5.0);
        assertThat(latest("sqlstreams.consumer.session.dead")).contains(1.0);
        assertThat(series("sqlstreams.consumer.session.dead").history(100)).as("dead did not move: not rewritten")
                .hasSize(deadWrites);
        List<Double> successes = series("sqlstreams.consumer.session.success").history(100).stream()
                .map(Measurement::value).toList();
        assertThat(successes).as("newest first, never decreasing over time").hasSizeGreaterThan(successWrites)
                .isSortedAccordingTo((newer, older) -> Double.compare(older, newer));
    }

    @Test
    void twoLiveSessionsOnOneHostAddUpOnTheirSharedSeries() throws Exception {
        ConsumerInstance<Numbered> one = rig.register(GROUP, ConsumerConfig.defaults());
        ConsumerInstance<Numbered> other = rig.streamOfAnotherClient(new RecordingLogger()).consumer(GROUP)
                .register(ConsumerConfig.defaults());
        ConsumerSession a = rig.start(one, SUCCEED, fastSession().batchLimit(2).build());
        ConsumerSession b = rig.start(other, SUCCEED, fastSession().batchLimit(2).build());
        rig.produceNumbered(20);

        await().atMost(WAIT).until(() -> a.counters().success() + b.counters().success() == 20);
        a.stop(STOP);
        b.stop(STOP);

        assertThat(latest("sqlstreams.consumer.session.success")).contains(20.0);
        assertThat(latest("sqlstreams.consumer.session.claimed"))
                .contains((double) (a.counters().claimed() + b.counters().claimed()));
    }

    /**
     * Two handlers ignore their interruption and are abandoned at their 200 ms timeout plus grace; the first then
     * returns on its own, the second is still running when the session stops. Their retries succeed.
     */
    @Test
    void abandonedRoutinesReachTheGroupGaugesThroughTheSessionSeries() throws Exception {
        ConsumerInstance<Numbered> instance = rig.register(GROUP, ConsumerConfig.builder()
                .message(MessageOptions.builder().timeout(Duration.ofMillis(200)).build()).build());
        rig.produceNumbered(2);
        CountDownLatch firstReturns = new CountDownLatch(1);
        CountDownLatch secondReturns = new CountDownLatch(1);
        Set<Long> blocked = ConcurrentHashMap.newKeySet();
        try {
            ConsumerSession session = rig.start(instance, payload -> {
                if (blocked.add(payload.n())) {
                    awaitIgnoringInterrupts(payload.n() == 1 ? firstReturns : secondReturns);
                }
            }, fastSession().build());
            await().atMost(WAIT).until(() -> session.counters().abandoned() == 2);
            firstReturns.countDown();
            await().atMost(WAIT).until(() -> rig.logger.withCode("SQL0126").size() == 1
                    && session.counters().success() == 2);
            session.stop(STOP);

            Measurement recorded = series("sqlstreams.consumer.session.abandoned").latest().orElseThrow();
            AbandonedRoutineDetail detail = AbandonedRoutineDetail.parse(recorded.metadata());
            assertThat(recorded.value()).isEqualTo(2.0);
            assertThat(detail.cleared()).isOne();
            assertThat(detail.outstanding()).containsOnlyKeys(session.id());
            assertThat(detail.outstandingAt(Instant.now())).isOne();
            Map<String, Double> expected = Map.of("sqlstreams.consumer.abandoned_routines.outstanding", 1.0,
                    "sqlstreams.consumer.abandoned_routines.total", 2.0,
                    "sqlstreams.consumer.abandoned_routines.self_clear_latency_avg", detail.clearMillis() / 1000.0);
            assertThat(abandonedGauges(rig.stream.consumer(GROUP).metrics().snapshot())).as("read live")
                    .isEqualTo(expected);

            new MetricsCollector(EngineFixtures.engine(rig.database, new RecordingLogger())).tick();
            assertThat(abandonedGauges(rig.stream.consumer(GROUP).metrics().latest())).as("recorded by the collector")
                    .isEqualTo(expected);
        } finally {
            firstReturns.countDown();
            secondReturns.countDown();
        }
    }

    private static Map<String, Double> abandonedGauges(List<Measurement> measurements) {
        return measurements.stream().filter(measurement -> measurement.name().contains(".abandoned_routines."))
                .collect(Collectors.toMap(Measurement::name, Measurement::value));
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException ignored) {
                // this handler does not honour its interruption, so that it is abandoned
            }
        }
    }

    /** A trigger makes every write to {@code __system.metrics} fail while the second session runs and stops. */
    @Test
    void aFlushThatFailsIsLoggedAndNeitherDeliveryNorTheStopFails(TestDatabase database) throws Exception {
        ConsumerInstance<Numbered> instance = rig.register(GROUP, ConsumerConfig.defaults());
        rig.produce(1);
        runUntil(instance, SUCCEED, 1, counted -> counted.success() == 1);
        assertThat(latest("sqlstreams.consumer.session.success")).contains(1.0);

        long metricsStream = rig.client.streams().stream().filter(stream -> stream.name().equals("__system.metrics"))
                .findFirst().orElseThrow().id();
        String schema = database.schema();
        database.execute("CREATE FUNCTION " + schema + ".refuse_metrics() RETURNS trigger LANGUAGE plpgsql AS"
                + " $$ BEGIN RAISE EXCEPTION 'metrics refused by the test'; END $$");
        database.execute("CREATE TRIGGER refuse_metrics BEFORE INSERT ON " + schema + ".message_log_" + metricsStream
                + " FOR EACH ROW EXECUTE FUNCTION " + schema + ".refuse_metrics()");
        try {
            rig.produce(2);
            rig.produce(3);
            ConsumerSession second = runUntil(instance, SUCCEED, 1, counted -> counted.success() == 2);

            assertThat(second.failure()).isEmpty();
            assertThat(rig.logger.withCode("SQL0146")).singleElement().asString()
                    .contains("session " + second.id(), "the next flush adds them");
            assertThat(rig.logger.lines()).filteredOn(line -> line.text().startsWith("SQL0146"))
                    .extracting(RecordingLogger.Line::level).containsOnly(System.Logger.Level.WARNING);
            assertThat(latest("sqlstreams.consumer.session.success")).as("nothing recorded").contains(1.0);
        } finally {
            database.execute("DROP TRIGGER refuse_metrics ON " + schema + ".message_log_" + metricsStream);
        }
    }

    /** Starts a session, waits until its counters satisfy {@code done}, and stops it. */
    private ConsumerSession runUntil(ConsumerInstance<Numbered> instance, MessageHandler<Numbered> handler,
                                     int batchLimit, Predicate<SessionCounters> done) throws InterruptedException {
        ConsumerSession session = rig.start(instance, handler, fastSession().batchLimit(batchLimit).build());
        await().atMost(WAIT).until(() -> done.test(session.counters()));
        session.stop(STOP);
        return session;
    }

    private Optional<Double> latest(String name) {
        return series(name).latest().map(Measurement::value);
    }

    private MetricSeriesHandle series(String name) {
        return rig.client.system().metrics().metric(name, Map.of("stream", rig.stream.name(), "group", GROUP,
                "version", "1", "session", HostName.current()));
    }

    private static Map<String, Long> byMetric(SessionCounters counted) {
        Map<String, Long> totals = new LinkedHashMap<>();
        totals.put("sqlstreams.consumer.session.claimed", counted.claimed());
        totals.put("sqlstreams.consumer.session.success", counted.success());
        totals.put("sqlstreams.consumer.session.superseded", counted.superseded());
        totals.put("sqlstreams.consumer.session.ready", counted.ready());
        totals.put("sqlstreams.consumer.session.deferred", counted.deferred());
        totals.put("sqlstreams.consumer.session.dead", counted.dead());
        totals.put("sqlstreams.consumer.session.reclaimed", counted.reclaimed());
        totals.put("sqlstreams.consumer.session.quarantined", counted.quarantined());
        totals.put("sqlstreams.consumer.session.abandoned", counted.abandoned());
        totals.put("sqlstreams.consumer.session.lease_lost", counted.leaseLost());
        return totals;
    }
}
