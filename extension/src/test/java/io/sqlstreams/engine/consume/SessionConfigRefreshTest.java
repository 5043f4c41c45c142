package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.assertj.core.api.SoftAssertions;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.engine.consume.SessionTestKit.Work;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * How a redeclared group config reaches a running session (digest §3.5): the session keeps an in-memory copy
 * that a loop re-reads every ConfigRefreshInterval (200 ms here); a failed refresh logs SQL0060 and keeps the
 * last copy. What the session's copy says is observed black-box with probe messages: the resolved options a
 * probe's handler sees in {@link io.sqlstreams.MessageMeta} are resolved against the copy at claim time.
 */
@PostgresTest
class SessionConfigRefreshTest {
    private static final String GROUP = "charge-cards";
    private static final Duration TIMEOUT = Duration.ofSeconds(4);
    private static final Duration REDECLARED_TIMEOUT = Duration.ofSeconds(6);
    /** Probe payloads are numbered from here, far above the test's own messages. */
    private static final long PROBES = 1_000_000;

    private final Ledger ledger = new Ledger();
    private final AtomicLong probeNumbers = new AtomicLong(PROBES);
    private Rig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "refresh");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /**
     * The seed's worked case: a message sitting at attempt 3 of a MaxRetries 3 group gets attempts 4 and 5 after
     * another process redeclares MaxRetries 5. X's third run is held until the session's copy has MaxRetries 5,
     * so the outcome does not depend on the refresh beating the 10 ms retry backoff.
     */
    @Test
    void raisingMaxRetriesGivesAMessageAtAttemptThreeTwoMoreAttempts() throws Exception {
        ConsumerInstance<Numbered> instance = rig.register(GROUP, quickRetries(3, TIMEOUT));
        List<Long> ids = rig.produceNumbered(3);
        long x = 2;
        long xId = ids.get(1);
        CountDownLatch raised = new CountDownLatch(1);
        ConsumerSession session = rig.start(instance, ledger.handler("session", run -> {
            if (run.n() != x) {
                return;
            }
            if (run.meta().attempt() == 3) {
                raised.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
            throw new IllegalStateException("the card processor is down");
        }), session());

        await().alias("X runs its third attempt").atMost(Duration.ofSeconds(10)).until(() -> ledger.runCount(x) == 3);
        RecordingLogger otherLogger = new RecordingLogger();
        long snapshotsBefore = rig.configLogRows(GROUP);
        rig.streamOfAnotherClient(otherLogger).consumer(GROUP).register(quickRetries(5, TIMEOUT));

        assertThat(otherLogger.withCode("SQL0059")).as("one SQL0059 of the redeclaring client, naming the change")
                .singleElement().asString().endsWith(": message.retry.max_retries 3 -> 5");
        assertThat(rig.logger.withCode("SQL0059")).as("the running client declared nothing").isEmpty();
        assertThat(rig.configLogRows(GROUP)).as("one worker_config_log snapshot per replaced row")
                .isEqualTo(snapshotsBefore + 2);
        awaitCopy("the session's copy has MaxRetries 5", options -> options.retry().maxRetries() == 5);
        raised.countDown();

        await().alias("X dead-lettered with attempts 5").atMost(Duration.ofSeconds(10))
                .until(() -> "dead/5".equals(rig.exceptionRow(GROUP, xId)));
        session.close();
        assertThat(ledger.runs(x)).as("1 run + 5 retries").extracting(run -> run.meta().attempt())
                .containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(ledger.runs(x)).as("the budget each run was claimed under")
                .extracting(run -> run.meta().options().retry().maxRetries()).containsExactly(3, 3, 3, 5, 5, 5);
        assertThat(rig.stream.consumer(GROUP).inspect().dead()).isEqualTo(1);
        assertThat(ledger.runCount(1)).isEqualTo(1);
        assertThat(ledger.runCount(3)).isEqualTo(1);
    }

    @Test
    void redeclaredTimeoutReachesMessageMetaOfLaterDeliveries() throws Exception {
        rig.start(rig.register(GROUP, quickRetries(3, TIMEOUT)), ledger.handler("session", Work.SUCCEED),
                session());
        assertThat(probe().timeout()).isEqualTo(TIMEOUT);

        RecordingLogger otherLogger = new RecordingLogger();
        rig.streamOfAnotherClient(otherLogger).consumer(GROUP).register(quickRetries(3, REDECLARED_TIMEOUT));

        assertThat(otherLogger.withCode("SQL0059")).singleElement().asString().endsWith(": message.timeout 4s -> 6s");
        awaitCopy("the redeclared timeout reaches MessageMeta",
                options -> options.timeout().equals(REDECLARED_TIMEOUT));
        assertThat(probe().timeout()).as("and stays").isEqualTo(REDECLARED_TIMEOUT);
    }

    /**
     * Stored declarations a session cannot read: a timeout that is no duration, a reclaim limit that is text,
     * and one that is no integer.
     */
    static Stream<String> unreadableDeclarations() {
        return Stream.of("{\"message\": {\"timeout\": \"banana\"}}", "{\"max_range_reclaims\": \"x\"}",
                "{\"max_range_reclaims\": 2.5}");
    }

    /**
     * A stored declaration the session cannot read: the refresh fails with SQL0060, the session keeps running on
     * its last copy, and the refresh loop survives to pick up the next valid declaration.
     */
    @ParameterizedTest(name = "metadata {0}")
    @MethodSource("unreadableDeclarations")
    void unreadableDeclarationFailsTheRefreshAndTheLastCopyStays(String unreadable) throws Exception {
        ConsumerSession session = rig.start(rig.register(GROUP, quickRetries(3, TIMEOUT)),
                ledger.handler("session", Work.SUCCEED), session());
        assertThat(probe().timeout()).isEqualTo(TIMEOUT);

        rig.overwriteDeclaration(GROUP, unreadable);
        AtomicReference<MessageOptions> copy = new AtomicReference<>();
        boolean noticed = eventually(Duration.ofSeconds(3), () -> {
            copy.set(probe());
            return !rig.logger.withCode("SQL0060").isEmpty() || !TIMEOUT.equals(copy.get().timeout());
        });
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(rig.logger.withCode("SQL0060")).as("SQL0060 for the unreadable declaration %s"
                + " (noticed within 3 s: %s)", unreadable, noticed).isNotEmpty();
        softly.assertThat(copy.get().timeout()).as("the session's copy after the failed refresh (retry %s)",
                copy.get().retry()).isEqualTo(TIMEOUT);
        softly.assertThat(session.isRunning()).as("the session keeps running").isTrue();

        rig.streamOfAnotherClient(new RecordingLogger()).consumer(GROUP).register(quickRetries(3, REDECLARED_TIMEOUT));
        softly.assertThat(eventually(Duration.ofSeconds(3), () -> REDECLARED_TIMEOUT.equals(probe().timeout())))
                .as("a later valid redeclaration still reaches the session (the refresh loop survived)").isTrue();
        softly.assertAll();
    }

    /**
     * The session's first read of the stored declaration is a refresh too: when it cannot be read, the session
     * starts on the copy its instance registered (SQL0060), and the instance is never left unable to start.
     */
    @ParameterizedTest(name = "metadata {0}")
    @MethodSource("unreadableDeclarations")
    void sessionStartingOverAnUnreadableDeclarationRunsOnTheRegisteredCopy(String unreadable) throws Exception {
        ConsumerConfig declaration = quickRetries(3, TIMEOUT);
        ConsumerInstance<Numbered> instance = rig.register(GROUP, declaration);
        rig.overwriteDeclaration(GROUP, unreadable);
        MessageHandler<Numbered> handler = ledger.handler("session", Work.SUCCEED);

        Throwable refused = catchThrowable(() -> rig.start(instance, handler, session()));

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(refused).as("start over the unreadable declaration %s", unreadable).isNull();
        softly.assertThat(rig.logger.withCode("SQL0060")).as("SQL0060 for the unreadable declaration").isNotEmpty();
        if (refused == null) {
            softly.assertThat(probe().timeout()).as("the copy in use is the registered declaration").isEqualTo(TIMEOUT);
        } else {
            rig.register(GROUP, quickRetries(3, REDECLARED_TIMEOUT));
            softly.assertThat(catchThrowable(() -> rig.start(instance, handler, session())))
                    .as("a later start on the same instance, once the stored declaration is repaired").isNull();
        }
        softly.assertAll();
    }

    /**
     * The derived shutdown budget (messageMax timeout + grace + record margin) follows a refreshed ceiling: a
     * session declared with a 5 s timeout whose group is redeclared at 500 ms drains for 700 ms, not for the
     * 2.5 s handler claimed under the old declaration.
     */
    @Test
    void refreshedCeilingMovesTheDerivedShutdownBudget() throws Exception {
        ConsumerSession session = rig.start(rig.register(GROUP, quickRetries(3, Duration.ofSeconds(5))),
                ledger.handler("session", run -> {
                    if (run.n() == 1) {
                        Thread.sleep(2500);
                    }
                }), fastSession().queueMargin(Duration.ofSeconds(2)).messageConcurrency(2).build());
        rig.produce(1);
        ledger.awaitFirstRun(1, Duration.ofSeconds(10));
        rig.streamOfAnotherClient(new RecordingLogger()).consumer(GROUP)
                .register(quickRetries(3, Duration.ofMillis(500)));
        awaitCopy("the 500 ms ceiling reached the session",
                options -> options.timeout().equals(Duration.ofMillis(500)));

        long started = System.nanoTime();
        session.close();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("close with the re-derived 700 ms budget").isLessThan(Duration.ofMillis(1500));
        assertThat(rig.logger.withCode(Code.SQL0121.id())).singleElement().asString().contains("700 ms");
    }

    @Test
    void identicalRedeclarationWritesNothingAndLogsNoSql0059() throws Exception {
        ConsumerConfig declaration = quickRetries(3, TIMEOUT).toBuilder()
                .messageMax(MessageOptions.builder().timeout(Duration.ofSeconds(8)).build())
                .maxRangeReclaims(5)
                .build();
        ConsumerSession session = rig.start(rig.register(GROUP, declaration), ledger.handler("session", Work.SUCCEED),
                session());
        List<String> rowsBefore = rig.workerRows(GROUP);
        long snapshotsBefore = rig.configLogRows(GROUP);

        RecordingLogger otherLogger = new RecordingLogger();
        rig.streamOfAnotherClient(otherLogger).consumer(GROUP).register(declaration);
        rig.register(GROUP, declaration);

        assertThat(otherLogger.withCode("SQL0059")).isEmpty();
        assertThat(rig.logger.withCode("SQL0059")).isEmpty();
        assertThat(rig.workerRows(GROUP)).as("metadata and updated_at untouched").isEqualTo(rowsBefore);
        assertThat(rig.configLogRows(GROUP)).as("no worker_config_log snapshot").isEqualTo(snapshotsBefore);
        assertThat(probe().timeout()).isEqualTo(TIMEOUT);
        assertThat(session.isRunning()).isTrue();
    }

    /**
     * Fast polls and a 200 ms refresh; the queue margin is generous because this class never waits for a
     * reclaim, and the first delivery of a JVM can sit queued for hundreds of milliseconds (codec warm-up).
     */
    private static ConsumeOptions session() {
        return fastSession().queueMargin(Duration.ofSeconds(2)).build();
    }

    /** Produces a probe and returns the options it ran under: what the session's copy says now. */
    private MessageOptions probe() throws Exception {
        long n = probeNumbers.incrementAndGet();
        rig.produce(n);
        return ledger.awaitFirstRun(n, Duration.ofSeconds(5)).meta().options();
    }

    /** Probes until the session's copy satisfies {@code condition}. */
    private void awaitCopy(String description, Predicate<MessageOptions> condition) {
        await().alias(description).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> condition.test(probe()));
    }

    /** Whether {@code condition} holds within {@code timeout}; false instead of a timeout failure. */
    private static boolean eventually(Duration timeout, Callable<Boolean> condition) {
        try {
            await().atMost(timeout).pollInterval(Duration.ofMillis(50)).until(condition);
            return true;
        } catch (ConditionTimeoutException notInTime) {
            return false;
        }
    }
}
