package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Start;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.engine.consume.SessionTestKit.Run;
import io.sqlstreams.engine.consume.SessionTestKit.Work;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * How a session stops (digest §3.15): stop claiming, wait for in-flight handlers up to the shutdown budget,
 * settle every open range (surrender the never-started, commit the resolved prefix and give the rest back),
 * release the liveness rows and log SQL0041 with the session's counters.
 */
@PostgresTest
class SessionShutdownTest {
    private static final String GROUP = "drain";
    private static final Duration STOP_MARGIN = Duration.ofMillis(700);

    private final Ledger ledger = new Ledger();
    private Rig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "shutdown");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /**
     * 1,000 messages, two sessions of MessageConcurrency 4 with 5–20 ms handlers; one is closed after 300
     * messages, the other after 600, and a third finishes. Nothing is lost, and a message runs twice only when
     * its range was left unresolved by a stop.
     */
    @Test
    void gracefulShutdownUnderLoadLosesNothing() throws Exception {
        int total = 1000;
        int batch = 8;
        int concurrency = 4;
        ConsumerConfig declaration = quickRetries(3, Duration.ofSeconds(1));
        ConsumeOptions options = session().batchLimit(batch).messageConcurrency(concurrency).build();
        List<Long> ids = rig.produceNumbered(total);
        Work work = run -> Thread.sleep(ThreadLocalRandom.current().nextLong(5, 21));

        ConsumerSession first = rig.start(rig.register(GROUP, declaration), ledger.handler("first", work), options);
        ConsumerSession second = rig.start(rig.register(GROUP, declaration), ledger.handler("second", work), options);
        assertThat(rig.sessionRows(GROUP)).as("two rows per session").isEqualTo(4);
        Duration firstStop = stopAfter(first, 300);
        assertThat(rig.sessionRows(GROUP)).as("the first session's rows are released").isEqualTo(2);
        Duration secondStop = stopAfter(second, 600);
        assertThat(rig.instanceRows(GROUP)).isZero();
        ConsumerSession third = rig.start(rig.register(GROUP, declaration), ledger.handler("third", work), options);
        await().alias("every message handled").atMost(Duration.ofSeconds(30))
                .until(() -> ledger.handled().size() == total);
        await().alias("committed cursor at the head").atMost(Duration.ofSeconds(10))
                .until(() -> rig.stream.consumer(GROUP).inspect().committed() == ids.get(total - 1));
        Duration thirdStop = timed(third::close);

        assertThat(ledger.handled()).containsExactlyInAnyOrderElementsOf(
                LongStream.rangeClosed(1, total).boxed().collect(Collectors.toSet()));
        ConsumerInspection inspection = rig.stream.consumer(GROUP).inspect();
        assertThat(inspection.openLeases()).isZero();
        assertThat(inspection.exceptions()).isEmpty();
        assertThat(rig.instanceRows(GROUP)).isZero();
        for (ConsumerSession session : List.of(first, second, third)) {
            assertThat(session.isRunning()).isFalse();
            assertThat(session.failure()).isEmpty();
        }
        Duration budget = options.resolvedShutdownTimeout(declaration).plus(STOP_MARGIN);
        assertThat(List.of(firstStop, secondStop, thirdStop)).allSatisfy(took -> assertThat(took).isLessThan(budget));

        Map<Long, List<Run>> duplicates = ledger.duplicates();
        int bound = 2 * (2 * batch + concurrency);
        System.out.printf("graceful shutdown under load: %d duplicate message(s) (bound %d), %d handler runs, stops"
                + " took %d/%d/%d ms%n", duplicates.size(), bound, ledger.totalRuns(), firstStop.toMillis(),
                secondStop.toMillis(), thirdStop.toMillis());
        assertThat(duplicates.size()).as("duplicates: %s", duplicates.keySet()).isLessThanOrEqualTo(bound);
        Map<String, ConsumerSession> byName = Map.of("first", first, "second", second, "third", third);
        assertThat(duplicates.values()).as("a message runs again only after the session that ran it stopped, or"
                + " within one session only after that session lost or reclaimed a lease (a stalled machine)")
                .allSatisfy(runs -> {
                    assertThat(runs.get(0).session()).isIn("first", "second");
                    runs.stream().map(Run::session).filter(name -> runs.stream()
                            .filter(run -> run.session().equals(name)).count() > 1).distinct()
                            .forEach(name -> assertThat(byName.get(name).counters())
                                    .satisfiesAnyOf(counters -> assertThat(counters.reclaimed()).isPositive(),
                                            counters -> assertThat(counters.leaseLost()).isPositive()));
                });

        long successes = 0;
        for (ConsumerSession session : List.of(first, second, third)) {
            List<String> stopLines = rig.stopLines(session);
            assertThat(stopLines).as("one SQL0041 per session").hasSize(1);
            Map<String, Long> counters = SessionTestKit.counters(stopLines.get(0));
            assertThat(counters.get("success_count")).as("the stop line carries the final counters")
                    .isEqualTo(session.counters().success());
            assertThat(counters.get("claimed_count")).isGreaterThanOrEqualTo(counters.get("success_count"));
            assertThat(counters.get("dead_count")).isZero();
            successes += counters.get("success_count");
        }
        assertThat(rig.logger.withCode("SQL0041")).hasSize(3);
        assertThat(successes).as("success_count over the sessions").isGreaterThanOrEqualTo(total)
                .isLessThanOrEqualTo(ledger.totalRuns());
    }

    /** The two ways to give a stop a budget shorter than a running handler. */
    enum ShortBudget {
        CLOSE_WITH_SHUTDOWN_TIMEOUT(ConsumeOptions.Builder::build, (session, budget) -> session.close()),
        STOP_WITH_DURATION(builder -> builder.shutdownTimeout(null).build(), ConsumerSession::stop);

        private final Function<ConsumeOptions.Builder, ConsumeOptions> options;
        private final BiConsumer<ConsumerSession, Duration> stop;

        ShortBudget(Function<ConsumeOptions.Builder, ConsumeOptions> options,
                    BiConsumer<ConsumerSession, Duration> stop) {
            this.options = options;
            this.stop = stop;
        }
    }

    /**
     * A handler sleeps 2 s, longer than the 300 ms budget (shutdownTimeout, or stop(Duration) over the derived
     * 2.7 s default): the stop returns within the budget and a margin, warns, releases the rows, and the message
     * is reclaimed and handled by a later session once its lease expires.
     */
    @ParameterizedTest
    @EnumSource(ShortBudget.class)
    void stopReturnsWithinItsBudgetWhenAHandlerOverrunsIt(ShortBudget variant) throws Exception {
        Duration budget = Duration.ofMillis(300);
        ConsumerConfig declaration = quickRetries(3, Duration.ofMillis(2500));
        long id = rig.produceNumbered(1).get(0);
        ConsumerSession first = rig.start(rig.register(GROUP, declaration),
                ledger.handler("first", sleepingIn("first", Duration.ofSeconds(2))),
                variant.options.apply(session().shutdownTimeout(budget)));
        ledger.awaitFirstRun(1, Duration.ofSeconds(10));

        Duration took = timed(() -> variant.stop.accept(first, budget));

        assertThat(took).isLessThan(budget.plus(STOP_MARGIN));
        assertThat(first.isRunning()).isFalse();
        assertThat(rig.instanceRows(GROUP)).as("worker_instance rows released").isZero();
        assertThat(rig.warnings("shutdown timeout")).hasSize(1)
                .allSatisfy(line -> assertThat(line).contains("1 handler(s)").contains("300 ms"));
        assertThat(rig.stopLines(first)).hasSize(1);
        assertThat(first.counters().success()).isZero();

        rig.start(rig.register(GROUP, declaration), ledger.handler("second", Work.SUCCEED), session().build());
        await().alias("the message reclaimed and handled by the next session").atMost(Duration.ofSeconds(10))
                .until(() -> ledger.runs(1).stream().anyMatch(run -> run.session().equals("second")));
        assertThat(ledger.runs(1)).extracting(Run::session).containsExactly("first", "second");
        assertThat(rig.logger.withCode("SQL0026")).as("reclaimed after lease expiry").hasSize(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> rig.stream.consumer(GROUP).inspect().committed() == id);
    }

    /**
     * The shutdown budget bounds the whole drain: with a fresh handler and a retry (exception path) handler both
     * running past a 1 s shutdownTimeout, close still returns within the budget and a margin.
     */
    @Test
    void shutdownBudgetBoundsFreshAndRetryHandlersTogether() throws Exception {
        Duration budget = Duration.ofSeconds(1);
        Duration overrun = Duration.ofSeconds(3);
        ConsumerSession session = rig.start(rig.register(GROUP, quickRetries(3, Duration.ofSeconds(4))),
                ledger.handler("only", run -> {
                    if (run.n() == 1 && run.meta().attempt() == 1) {
                        throw new IllegalStateException("fails once, then retries slowly");
                    }
                    Thread.sleep(overrun.toMillis());
                }), session().shutdownTimeout(budget).build());
        rig.produce(1);
        await().alias("the retry of message 1 runs").atMost(Duration.ofSeconds(10))
                .until(() -> ledger.runCount(1) == 2);
        rig.produce(2);
        ledger.awaitFirstRun(2, Duration.ofSeconds(10));

        Duration took = timed(session::close);

        assertThat(took).as("close with a retry and a fresh handler running past the %d ms budget", budget.toMillis())
                .isLessThan(budget.plus(STOP_MARGIN));
        assertThat(session.isRunning()).isFalse();
        assertThat(rig.instanceRows(GROUP)).isZero();
    }

    /** stop(Duration) overrides the configured 300 ms shutdownTimeout the other way too: it waits longer. */
    @Test
    void stopWithALongerBudgetWaitsForTheHandler() throws Exception {
        Duration handlerTime = Duration.ofMillis(500);
        ConsumerSession session = rig.start(rig.register(GROUP, quickRetries(3, Duration.ofMillis(2500))),
                ledger.handler("only", sleepingIn("only", handlerTime)),
                session().shutdownTimeout(Duration.ofMillis(300)).build());
        rig.produce(1);
        Run run = ledger.awaitFirstRun(1, Duration.ofSeconds(10));

        session.stop(Duration.ofSeconds(5));

        assertThat(Duration.between(run.at(), Instant.now())).as("stop returned after the handler")
                .isGreaterThanOrEqualTo(handlerTime);
        assertThat(rig.warnings("shutdown timeout")).isEmpty();
        assertThat(session.counters().abandoned()).isZero();
        assertThat(rig.stopLines(session)).hasSize(1);
        assertThat(rig.instanceRows(GROUP)).isZero();
    }

    /**
     * disableGracefulShutdown stops like a process exit: stop returns while the handler is still blocked in flight
     * (no drain, though the stop's budget is 30 s), its message is not recorded, the rows are released and SQL0041
     * logged, and the range keeps its lease until it expires; then a second session reclaims and delivers it. That
     * a stop without the option waits for its handlers is {@link #stopWithALongerBudgetWaitsForTheHandler} and
     * {@link #drainedHandlerOutcomeIsCommittedAtStop}.
     */
    @Test
    void withoutGracefulShutdownStopLeavesTheHandlerInFlightToLeaseExpiry() throws Exception {
        ConsumerConfig declaration = quickRetries(3, Duration.ofSeconds(3));
        long id = rig.produceNumbered(1).get(0);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean handlerReturned = new AtomicBoolean();
        ConsumerSession first = rig.start(rig.register(GROUP, declaration), ledger.handler("first", run -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } finally {
                handlerReturned.set(true);
            }
        }), session().disableGracefulShutdown(true).build());
        ledger.awaitFirstRun(1, Duration.ofSeconds(10));
        try {
            first.stop(Duration.ofSeconds(30));

            assertThat(handlerReturned).as("the handler is still blocked when stop returns").isFalse();
            assertThat(first.isRunning()).isFalse();
            assertThat(rig.instanceRows(GROUP)).as("worker_instance rows released").isZero();
            assertThat(rig.stopLines(first)).hasSize(1);
            assertThat(rig.warnings("shutdown timeout")).as("no drain to time out").isEmpty();
            assertThat(first.counters().success()).isZero();
            ConsumerInspection left = rig.stream.consumer(GROUP).inspect();
            assertThat(left.committed()).as("the message is not recorded").isLessThan(id);
            assertThat(left.openLeases()).as("its range keeps the lease").isEqualTo(1);
            assertThat(rig.exceptionRow(GROUP, id)).isNull();

            rig.start(rig.register(GROUP, declaration), ledger.handler("second", Work.SUCCEED), session().build());
            await().alias("the message reclaimed and handled by the next session").atMost(Duration.ofSeconds(15))
                    .until(() -> ledger.runs(1).stream().anyMatch(run -> run.session().equals("second")));
            assertThat(rig.logger.withCode("SQL0026")).as("reclaimed after lease expiry").hasSize(1);
            await().atMost(Duration.ofSeconds(5)).until(() -> rig.stream.consumer(GROUP).inspect().committed() == id);
        } finally {
            release.countDown();
        }
        assertThat(ledger.runs(1)).extracting(Run::session).containsExactly("first", "second");
    }

    /**
     * The exception path halts alike: a retry blocked in flight when a session without graceful shutdown stops
     * keeps its row in flight under the row's lease, nothing is written for it, and once the lease expires a
     * second session runs it.
     */
    @Test
    void withoutGracefulShutdownARetryInFlightKeepsItsRowUntilTheLeaseExpires() throws Exception {
        ConsumerConfig declaration = quickRetries(3, Duration.ofSeconds(3));
        long id = rig.produceNumbered(1).get(0);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean retryReturned = new AtomicBoolean();
        ConsumerSession first = rig.start(rig.register(GROUP, declaration), ledger.handler("first", run -> {
            if (run.meta().attempt() == 1) {
                throw new IllegalStateException("fails once; its retry blocks");
            }
            try {
                release.await(30, TimeUnit.SECONDS);
            } finally {
                retryReturned.set(true);
            }
        }), session().disableGracefulShutdown(true).build());
        await().alias("the retry runs").atMost(Duration.ofSeconds(10)).until(() -> ledger.runCount(1) == 2);
        try {
            first.stop(Duration.ofSeconds(30));

            assertThat(retryReturned).as("the retry is still blocked when stop returns").isFalse();
            assertThat(rig.instanceRows(GROUP)).isZero();
            assertThat(rig.stopLines(first)).hasSize(1);
            assertThat(rig.exceptionRow(GROUP, id)).as("in flight, run 1 counted").isEqualTo("inflight/1");

            rig.start(rig.register(GROUP, declaration), ledger.handler("second", Work.SUCCEED), session().build());
            await().alias("the retry run again by the next session").atMost(Duration.ofSeconds(15))
                    .until(() -> rig.exceptionRow(GROUP, id) == null);
        } finally {
            release.countDown();
        }
        assertThat(ledger.runs(1)).extracting(Run::session).containsExactly("first", "first", "second");
    }

    /**
     * A handler the drain waited for has an outcome, and the settle must record it: its range is committed and
     * counted, not left to lease expiry (which would run the message again). Repeated in rounds because the
     * outcome races the drain; each round is a fresh group at the head of the stream.
     */
    @Test
    void drainedHandlerOutcomeIsCommittedAtStop() throws Exception {
        int rounds = 20;
        List<String> dropped = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            String group = "round-" + round;
            ConsumerSession session = rig.start(rig.register(group, quickRetries(3, Duration.ofSeconds(2)).toBuilder()
                            .start(Start.HEAD).build()),
                    ledger.handler(group, run -> Thread.sleep(30)), session().build());
            rig.produce(round);
            ledger.awaitFirstRun(round, Duration.ofSeconds(10));
            session.stop(Duration.ofSeconds(5));
            ConsumerInspection inspection = rig.stream.consumer(group).inspect();
            if (session.counters().success() != 1 || inspection.openLeases() != 0) {
                dropped.add(group + " (success_count=" + session.counters().success() + ", open leases="
                        + inspection.openLeases() + ", committed=" + inspection.committed() + ")");
            }
        }
        assertThat(dropped).as("rounds whose waited-for handler outcome was not committed at stop, of %d", rounds)
                .isEmpty();
    }

    /**
     * A server stopping an application interrupts the tasks it submitted before the application can drain them: a
     * handler interrupted by its host, not by its own timeout, is handed back as deferred with its attempt given
     * back (the delivery log shows a deferral, no failure) and runs again.
     */
    @Test
    void aHandlerItsHostInterruptsIsHandedBackWithoutCountingTheAttempt() throws Exception {
        AtomicReference<Thread> firstRun = new AtomicReference<>();
        CountDownLatch running = new CountDownLatch(1);
        rig.start(rig.register(GROUP, quickRetries(3, Duration.ofSeconds(10))), ledger.handler("host", run -> {
            if (firstRun.compareAndSet(null, Thread.currentThread())) {
                running.countDown();
                Thread.sleep(Duration.ofSeconds(10).toMillis());
            }
        }), session().build());
        rig.produce(1);
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        firstRun.get().interrupt();

        await().atMost(Duration.ofSeconds(10)).until(() -> ledger.runs(1).size() == 2);
        Sql sql = new Sql(rig.database);
        String log = "SELECT status FROM {s}.delivery_log_" + rig.stream.get().orElseThrow().id() + " ORDER BY id";
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(sql.strings(log))
                .as("handed back (no failure counted), then done").containsExactly("deferred"));
    }

    /**
     * Fast polls and short margins, but a 1 s queue margin: the first delivery of a JVM can sit queued for
     * hundreds of milliseconds (codec warm-up), and a start-guard refusal would blur what these tests count.
     */
    private static ConsumeOptions.Builder session() {
        return fastSession().queueMargin(Duration.ofSeconds(1));
    }

    /** Waits until {@code count} messages ran, closes {@code session} and returns how long close took. */
    private Duration stopAfter(ConsumerSession session, int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> ledger.handled().size() >= count);
        Duration took = timed(session::close);
        assertThat(session.isRunning()).isFalse();
        return took;
    }

    /** Work that sleeps {@code duration} in the first run of {@code session} only. */
    private static Work sleepingIn(String session, Duration duration) {
        Set<String> slept = ConcurrentHashMap.newKeySet();
        return run -> {
            if (run.session().equals(session) && slept.add(session)) {
                Thread.sleep(duration.toMillis());
            }
        };
    }

    private static Duration timed(Runnable action) {
        long started = System.nanoTime();
        action.run();
        return Duration.ofNanos(System.nanoTime() - started);
    }
}
