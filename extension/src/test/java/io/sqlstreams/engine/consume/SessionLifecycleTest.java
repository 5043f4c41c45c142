package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.sqlstreams.AlreadyConsumingException;
import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.engine.consume.SessionTestKit.Run;
import io.sqlstreams.engine.consume.SessionTestKit.Work;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/**
 * A session's lifecycle on one instance (digest §3.14): one session at a time (SQL0001), the blocking consume
 * and how it returns, option validation before anything starts (SQL0108), per-instance options that are never
 * stored, a destroyed group failing its sessions (SQL0014), and the start guard (SQL0105, §3.7).
 */
@PostgresTest
class SessionLifecycleTest {
    private static final String GROUP = "lifecycle";
    private static final ConsumerConfig DECLARATION = quickRetries(3, Duration.ofSeconds(2));

    private final Ledger ledger = new Ledger();
    private Rig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "lifecycle");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void secondStartWhileOneRunsIsRefusedAndStartWorksAgainAfterClose() throws Exception {
        ConsumerInstance<Numbered> instance = rig.register(GROUP, DECLARATION);
        ConsumerSession first = rig.start(instance, ledger.handler("first", Work.SUCCEED), options().build());

        assertThatThrownBy(() -> instance.start(ledger.handler("second", Work.SUCCEED), options().build()))
                .isInstanceOf(AlreadyConsumingException.class)
                .satisfies(refused -> assertThat(((SqlStreamsException) refused).code()).isEqualTo(Code.SQL0001));
        assertThatThrownBy(() -> instance.consume(ledger.handler("second", Work.SUCCEED), options().build()))
                .isInstanceOf(AlreadyConsumingException.class);
        assertThat(rig.sessionRows(GROUP)).as("the refused starts claimed no rows").isEqualTo(2);
        assertThat(first.isRunning()).isTrue();
        rig.produce(1);
        assertThat(ledger.awaitFirstRun(1, Duration.ofSeconds(10)).session()).isEqualTo("first");

        first.close();
        ConsumerSession again = rig.start(instance, ledger.handler("again", Work.SUCCEED), options().build());
        assertThat(again.isRunning()).isTrue();
        assertThat(again.id()).isNotEqualTo(first.id());
        rig.produce(2);
        assertThat(ledger.awaitFirstRun(2, Duration.ofSeconds(10)).session()).isEqualTo("again");
        assertThat(rig.logger.withCode("SQL0041")).hasSize(1);
    }

    /** What ends a blocking consume from outside. */
    enum Ending {
        STOP_FROM_ANOTHER_THREAD, INTERRUPT
    }

    @ParameterizedTest
    @EnumSource(Ending.class)
    void blockingConsumeReturnsNormally(Ending ending) throws Exception {
        ConsumerInstance<Numbered> instance = rig.register(GROUP, DECLARATION);
        Consuming consuming = new Consuming(instance, ledger.handler("blocking", Work.SUCCEED), options().build());
        rig.produce(1);
        ledger.awaitFirstRun(1, Duration.ofSeconds(10));

        if (ending == Ending.INTERRUPT) {
            consuming.thread.interrupt();
        } else {
            instance.stop();
        }

        assertThat(consuming.returned.await(10, TimeUnit.SECONDS)).as("consume returned").isTrue();
        assertThat(consuming.thrown).as("consume returns normally").isNull();
        assertThat(consuming.interruptedAfter).as("the interrupt flag after consume returned")
                .isEqualTo(ending == Ending.INTERRUPT);
        assertThat(rig.logger.withCode("SQL0041")).hasSize(1);
        assertThat(rig.instanceRows(GROUP)).isZero();
    }

    static Stream<Arguments> invalidOptions() {
        return Stream.of(
                arguments("negative batch, concurrency and poll rate", ConsumeOptions.builder().batchLimit(-1)
                        .messageConcurrency(-2).claimPollRate(Duration.ofMillis(-5)).build(),
                        List.of("batchLimit", "messageConcurrency", "claimPollRate")),
                arguments("queue of 2 under the default batch, negative poll rate", ConsumeOptions.builder()
                        .queueSize(2).claimPollRate(Duration.ofMillis(-5)).build(),
                        List.of("queueSize", "claimPollRate")),
                arguments("negative margins and budgets", ConsumeOptions.builder().queueMargin(Duration.ofMillis(-1))
                        .recordMargin(Duration.ofMillis(-1)).timeoutGrace(Duration.ofMillis(-1))
                        .instanceTtl(Duration.ofMillis(-1)).configRefreshInterval(Duration.ofMillis(-1))
                        .shutdownTimeout(Duration.ofMillis(-1)).build(),
                        List.of("queueMargin", "recordMargin", "timeoutGrace", "instanceTtl", "configRefreshInterval",
                                "shutdownTimeout")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidOptions")
    void invalidOptionsAreRejectedListingEveryRuleAndStartNothing(String description, ConsumeOptions invalid,
                                                                   List<String> properties) throws Exception {
        ConsumerInstance<Numbered> instance = rig.register(GROUP, DECLARATION);
        MessageHandler<Numbered> handler = ledger.handler("invalid", Work.SUCCEED);

        for (Throwable refused : List.of(catchThrowable(() -> instance.start(handler, invalid)),
                catchThrowable(() -> instance.consume(handler, invalid)))) {
            assertThat(refused).isInstanceOf(InvalidConfigurationException.class);
            InvalidConfigurationException invalidConfiguration = (InvalidConfigurationException) refused;
            assertThat(invalidConfiguration.code()).isEqualTo(Code.SQL0108);
            assertThat(invalidConfiguration.violations()).extracting(InvalidConfigurationException.Violation::property)
                    .containsExactlyInAnyOrderElementsOf(properties);
        }
        assertThat(rig.instanceRows(GROUP)).as("no worker_instance rows").isZero();
        assertThat(rig.logger.withCode(Code.SQL0115.id())).as("no session started").isEmpty();
        assertThat(rig.logger.withCode("SQL0041")).isEmpty();
        assertThat(rig.start(instance, handler, options().build()).isRunning())
                .as("the refusals left the instance free to start").isTrue();
    }

    /**
     * Instances of one group may run different options: batch 1 / concurrency 1 beside batch 16 / concurrency
     * 8 share 500 messages exactly once each, and nothing of the session options is written to the group.
     */
    @Test
    void instancesWithDifferentOptionsCoexistAndHandleEachMessageOnce() throws Exception {
        int total = 500;
        ConsumerInstance<Numbered> narrow = rig.register(GROUP, DECLARATION);
        ConsumerInstance<Numbered> wide = rig.register(GROUP, DECLARATION);
        List<String> workersBefore = rig.workerRows(GROUP);
        long snapshotsBefore = rig.configLogRows(GROUP);
        Work work = run -> Thread.sleep(3);
        ConsumerSession narrowSession = rig.start(narrow, ledger.handler("narrow", work),
                options().batchLimit(1).messageConcurrency(1).build());
        ConsumerSession wideSession = rig.start(wide, ledger.handler("wide", work),
                options().batchLimit(16).messageConcurrency(8).build());
        assertThat(rig.sessionRows(GROUP)).isEqualTo(4);

        rig.produceNumbered(total);
        await().alias("all handled").atMost(Duration.ofSeconds(30)).until(() -> ledger.handled().size() == total);
        narrowSession.close();
        wideSession.close();

        assertThat(ledger.handled()).containsExactlyInAnyOrderElementsOf(
                LongStream.rangeClosed(1, total).boxed().collect(Collectors.toSet()));
        assertThat(ledger.duplicates()).as("no duplicates on the happy path").isEmpty();
        Map<String, Long> bySession = LongStream.rangeClosed(1, total).mapToObj(ledger::runs)
                .map(runs -> runs.get(0).session()).collect(Collectors.groupingBy(s -> s, Collectors.counting()));
        System.out.println("instances with different options: handled per session " + bySession);
        assertThat(bySession).containsOnlyKeys("narrow", "wide");
        assertThat(narrowSession.counters().success() + wideSession.counters().success()).isEqualTo(total);
        assertThat(rig.logger.withCode("SQL0059")).as("session options are never stored").isEmpty();
        assertThat(rig.logger.withCode("SQL0026")).isEmpty();
        assertThat(rig.workerRows(GROUP)).isEqualTo(workersBefore);
        assertThat(rig.configLogRows(GROUP)).isEqualTo(snapshotsBefore);
    }

    /** How the session under test runs. */
    enum Runner {
        STARTED, BLOCKING_CONSUME
    }

    /** A forced destroy removes the group under a running session: it stops with SQL0014 instead of hanging. */
    @ParameterizedTest
    @EnumSource(Runner.class)
    void destroyedGroupStopsItsSessionWithAFailure(Runner runner) throws Exception {
        ConsumerInstance<Numbered> instance = rig.register(GROUP, DECLARATION);
        MessageHandler<Numbered> handler = ledger.handler("doomed", Work.SUCCEED);
        ConsumerSession session = null;
        Consuming consuming = null;
        if (runner == Runner.STARTED) {
            session = rig.start(instance, handler, options().build());
        } else {
            consuming = new Consuming(instance, handler, options().build());
        }
        rig.produce(1);
        ledger.awaitFirstRun(1, Duration.ofSeconds(10));

        rig.stream.consumer(GROUP).destroy(DestroyOptions.forced());

        Throwable failure;
        if (session != null) {
            ConsumerSession started = session;
            await().alias("the session stops").atMost(Duration.ofSeconds(10)).until(() -> !started.isRunning());
            failure = started.failure().orElse(null);
        } else {
            assertThat(consuming.returned.await(10, TimeUnit.SECONDS)).as("consume returned").isTrue();
            failure = consuming.thrown;
        }
        assertThat(failure).as("the session's failure").isInstanceOf(SqlStreamsException.class);
        assertThat(((SqlStreamsException) failure).code()).as("failure %s", failure).isEqualTo(Code.SQL0014);
        assertThat(rig.logger.withCode("SQL0041")).hasSize(1);
    }

    /**
     * The start guard: queueMargin 50 ms, recordMargin 1 ms, timeout 300 ms, batch 4, concurrency 1, handlers of
     * 250 ms. A queued message that no longer has its timeout + grace + record margin of lease left renews the
     * range's lease by its token before it starts, so the range runs on in this session: each message once, on the
     * range path (attempt 1), with no SQL0105 and no reclaim. Before, the range waited for its lease to run out
     * and a reclaim ran its first message again.
     */
    @Test
    void queuedMessagesWithTooLittleLeaseLeftRenewItAndRunOnce() throws Exception {
        List<Long> ids = rig.produceNumbered(4);
        ConsumerSession session = startQuarterSecondHandlers(Duration.ofMillis(50));

        await().alias("committed").atMost(Duration.ofSeconds(20))
                .until(() -> rig.stream.consumer(GROUP).inspect().committed() == ids.get(3));
        session.close();

        for (long n = 1; n <= 4; n++) {
            assertThat(ledger.runs(n)).as("runs of message %d", n).extracting(run -> run.meta().attempt())
                    .containsExactly(1);
        }
        assertThat(rig.logger.withCode("SQL0105")).isEmpty();
        assertThat(rig.logger.withCode("SQL0026")).as("nothing was reclaimed").isEmpty();
        assertThat(session.counters().reclaimed()).isZero();
        assertThat(rig.stream.consumer(GROUP).inspect().exceptions()).isEmpty();
    }

    /**
     * A lease 1 ns longer than a run needs (queueMargin 1 ns; 0 would mean the default), timeout 300 ms: even a
     * renewed lease is short of a queued message's timeout + grace + record margin by the renewal's own round trip,
     * so no message starts on the range path (SQL0105) and the range waits for a reclaim, claim after claim, until
     * MaxRangeReclaims quarantines it. Every message is still handled, on the exception path, and none ever ran on
     * the range path (attempt 1).
     */
    @Test
    void aLeaseNoLongerThanARunNeedsLeavesTheRangeToItsReclaim() throws Exception {
        List<Long> ids = rig.produceNumbered(4);
        ConsumerSession session = startQuarterSecondHandlers(Duration.ofNanos(1));

        await().alias("every message handled").atMost(Duration.ofSeconds(20))
                .until(() -> ledger.handled().size() == 4);
        await().alias("committed").atMost(Duration.ofSeconds(10))
                .until(() -> rig.stream.consumer(GROUP).inspect().committed() == ids.get(3));
        session.close();

        assertThat(rig.logger.withCode("SQL0105")).as("SQL0105 logged").isNotEmpty()
                .allSatisfy(line -> assertThat(line).contains("even its renewed lease is too short"));
        assertThat(rig.logger.withCode("SQL0027")).as("the range was quarantined").hasSize(1);
        for (long n = 1; n <= 4; n++) {
            assertThat(ledger.runs(n)).as("message %d never started on the range path", n)
                    .extracting(run -> run.meta().attempt()).isNotEmpty().doesNotContain(1);
        }
        assertThat(rig.stream.consumer(GROUP).inspect().dead()).isZero();
        assertThat(rig.stream.consumer(GROUP).inspect().exceptions()).isEmpty();
    }

    /** A session of 250 ms handlers with a 300 ms timeout, batch 4, one at a time, and a 1 ms record margin. */
    private ConsumerSession startQuarterSecondHandlers(Duration queueMargin) throws InterruptedException {
        return rig.start(rig.register(GROUP, quickRetries(3, Duration.ofMillis(300))),
                ledger.handler("guarded", run -> Thread.sleep(250)),
                fastSession().queueMargin(queueMargin).recordMargin(Duration.ofMillis(1))
                        .batchLimit(4).messageConcurrency(1).build());
    }

    /**
     * A lease lost while its range waits in the session: message 1 holds the handler while another instance
     * (played by the test) takes the range's lease over, and returns only once the 50 ms queue margin is spent.
     * Message 2 then needs a renewal, which finds the token gone: nothing more of the range starts here (SQL0105).
     * Once the lease the test holds expires, the session reclaims the range itself and runs it whole: message 1 a
     * second time, the others once.
     */
    @Test
    void aSessionWhoseRangeLeaseWasTakenOverStartsNothingMoreOfIt() throws Exception {
        List<Long> ids = rig.produceNumbered(4);
        CountDownLatch release = new CountDownLatch(1);
        ConsumerSession session = rig.start(rig.register(GROUP, quickRetries(3, Duration.ofSeconds(2))),
                ledger.handler("guarded", run -> release.await()),
                fastSession().queueMargin(Duration.ofMillis(50)).recordMargin(Duration.ofMillis(1))
                        .batchLimit(4).messageConcurrency(1).build());
        Run first = ledger.awaitFirstRun(1, Duration.ofSeconds(10));

        assertThat(rig.leaseRows("UPDATE {schema}.claim_lease_" + rig.streamId() + " SET token = gen_random_uuid(),"
                + " expires_at = now() + interval '1 hour' WHERE consumer_group_id = ?", rig.groupId(GROUP)))
                .as("the range's lease taken over").isOne();
        await().alias("the queue margin spent, so message 2 must renew").atMost(Duration.ofSeconds(1))
                .until(() -> Instant.now().isAfter(first.at().plusMillis(100)));
        release.countDown();
        await().alias("SQL0105").atMost(Duration.ofSeconds(10))
                .until(() -> !rig.logger.withCode("SQL0105").isEmpty());
        assertThat(rig.logger.withCode("SQL0105")).singleElement().asString()
                .contains("reclaimed by another instance");
        assertThat(ledger.handled()).as("nothing after message 1 started on the lost lease").containsExactly(1L);

        assertThat(rig.leaseRows("UPDATE {schema}.claim_lease_" + rig.streamId() + " SET expires_at = now()"
                + " WHERE consumer_group_id = ?", rig.groupId(GROUP))).as("the other instance's lease ran out").isOne();
        await().alias("committed").atMost(Duration.ofSeconds(20))
                .until(() -> rig.stream.consumer(GROUP).inspect().committed() == ids.get(3));
        session.close();

        assertThat(ledger.runs(1)).extracting(run -> run.meta().attempt()).containsExactly(1, 1);
        for (long n = 2; n <= 4; n++) {
            assertThat(ledger.runs(n)).as("runs of message %d", n).hasSize(1);
        }
        assertThat(session.counters().reclaimed()).isOne();
        assertThat(rig.stream.consumer(GROUP).inspect().exceptions()).isEmpty();
    }

    private static ConsumeOptions.Builder options() {
        return fastSession().queueMargin(Duration.ofSeconds(1));
    }

    /** A blocking {@link ConsumerInstance#consume} on a thread of its own: what it threw and its interrupt flag. */
    private static final class Consuming {
        final Thread thread;
        final CountDownLatch returned = new CountDownLatch(1);
        volatile Throwable thrown;
        volatile boolean interruptedAfter;

        Consuming(ConsumerInstance<Numbered> instance, MessageHandler<Numbered> handler, ConsumeOptions options) {
            thread = new Thread(() -> {
                try {
                    instance.consume(handler, options);
                } catch (Throwable failure) {
                    thrown = failure;
                }
                interruptedAfter = Thread.currentThread().isInterrupted();
                returned.countDown();
            }, "blocking-consume");
            thread.setDaemon(true);
            thread.start();
        }
    }
}
