package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Concurrency;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Outcome;
import io.sqlstreams.engine.wakeup.Wakeups;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.telemetry.Telemetry;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.ManualScheduler;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.SettableClock;

/**
 * A handler run on a real thread, its timeout and grace timers on a {@link ManualScheduler}: a timer fires only
 * when the test moves the clock. Message 7 runs under a 30 s timeout and a 5 s grace.
 */
class HandlerRunnerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration GRACE = Duration.ofSeconds(5);
    private static final Duration JUST_BEFORE = Duration.ofMillis(1);
    private static final Duration PATIENCE = Duration.ofSeconds(10);
    private static final RegisteredGroup GROUP = new RegisteredGroup(1, "orders", 2, "billing",
            DeliveryLogMode.FAILURES, StreamConfig.DEFAULT_FENCE_WARN_AFTER);
    private static final MessageOptions OPTIONS = new MessageOptions(Concurrency.EXCLUSIVE, TIMEOUT, null, null);
    private static final Delivery DELIVERY = new Delivery(7, "order.paid", "customer-4", null, "{\"n\":42}",
            "{\"tenant\":\"acme\"}", Instant.parse("2026-01-01T00:00:00Z"), OPTIONS, 3, 0, Delivery.RunRecords.UNRECORDED);

    private final SettableClock clock = SettableClock.standing();
    private final ManualScheduler timer = new ManualScheduler(clock);
    private final ExecutorService handlerThread = Executors.newSingleThreadExecutor();
    private final RecordingLogger logger = new RecordingLogger();
    private final SessionCounterSet counters = new SessionCounterSet();
    /** Only what a handler run uses: the payload codec, the diagnostics and the clock. */
    private final Engine engine = new Engine(ClientConfig.defaults(), null, null, null, new Diagnostics(logger, clock),
            new PayloadCodec(), new EngineEnvironment(null, null, clock, null), null, null, null, Wakeups.disabled(),
            null, Telemetry.OFF);
    private final CountDownLatch release = new CountDownLatch(1);
    private Duration slowDispatchThreshold = Duration.ZERO;

    @AfterEach
    void stopHandlerThread() throws InterruptedException {
        release.countDown();
        handlerThread.shutdownNow();
        assertThat(handlerThread.awaitTermination(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aHandlerThatReturnsSucceedsAndItsTimersAreCancelled() throws Exception {
        AtomicReference<Numbered> received = new AtomicReference<>();

        DeliveryOutcome outcome = outcomeOf(run(received::set));

        assertThat(outcome).isEqualTo(new DeliveryOutcome.Success());
        assertThat(received).hasValue(new Numbered(42));
        await().atMost(PATIENCE).until(() -> timer.pending() == 0);
    }

    @Test
    void theHandlerSeesItsDeliveryAsMessageMetaAndItsThreadForgetsItAfterwards() throws Exception {
        AtomicReference<MessageMeta> seen = new AtomicReference<>();

        outcomeOf(run(payload -> seen.set(MessageMeta.current())));

        assertThat(seen).hasValue(new MessageMeta("orders", "billing", 7, "order.paid", "customer-4", null,
                DELIVERY.createdAt(), 3, 0, OPTIONS, Map.of("tenant", "acme")));
        Optional<MessageMeta> afterwards = handlerThread.submit(MessageMeta::find).get(PATIENCE.toSeconds(),
                TimeUnit.SECONDS);
        assertThat(afterwards).isEmpty();
    }

    @Test
    void aHandlerPastItsTimeoutIsInterruptedThereAndTheAttemptFails() throws Exception {
        CompletableFuture<DeliveryOutcome> outcome = runStarted(payload -> release.await());

        timer.advance(TIMEOUT.minus(JUST_BEFORE));
        assertThat(outcome).as("still inside its timeout").isNotDone();
        timer.advance(JUST_BEFORE);

        assertThat(outcomeOf(outcome)).isInstanceOfSatisfying(DeliveryOutcome.Retry.class, retry -> assertThat(
                retry.error()).contains("handler interrupted at its PT30S timeout")
                .contains("Caused by: java.lang.InterruptedException")
                .doesNotContain("hard timeout"));
        assertThat(counters.abandoned.sum()).isZero();
        await().atMost(PATIENCE).until(() -> timer.pending() == 0);
    }

    @Test
    void aHandlerThatIgnoresTheInterruptIsAbandonedWhenTheGraceEndsAndItsLateReturnChangesNothing() throws Exception {
        CompletableFuture<DeliveryOutcome> outcome = runPastTheTimeoutAHandlerThatIgnoresInterrupts();

        timer.advance(GRACE.minus(JUST_BEFORE));
        assertThat(outcome).as("still inside its grace").isNotDone();
        timer.advance(JUST_BEFORE);

        assertThat(outcome).isCompletedWithValue(new DeliveryOutcome.Retry("hard timeout: the handler did not return"
                + " within its PT30S timeout plus PT5S grace; its thread was abandoned"));
        assertThat(counters.abandoned.sum()).isOne();
        assertThat(counters.abandonedOutstanding.sum()).as("its thread still runs").isOne();
        assertThat(logger.lines()).anySatisfy(line -> assertThat(line.text())
                .startsWith("SQL0125 abandoned the handler of message 7 of " + GROUP.describe()));

        clock.advance(Duration.ofMillis(7_250));
        release.countDown();
        await().atMost(PATIENCE).until(() -> logger.lines().stream().anyMatch(line -> line.text().equals(
                "SQL0126 abandoned handler of message 7 of " + GROUP.describe()
                        + " returned after its attempt was recorded as failed")));
        assertThat(outcome.get()).isInstanceOf(DeliveryOutcome.Retry.class);
        assertThat(counters.abandoned.sum()).isOne();
        await().atMost(PATIENCE).until(() -> counters.abandonedCleared.sum() == 1);
        assertThat(counters.abandonedOutstanding.sum()).isZero();
        assertThat(counters.abandonedClearMillis.sum()).as("from abandonment to return").isEqualTo(7_250);
    }

    @Test
    void aHandlerThatSwallowsTheInterruptButReturnsWithinTheGraceSucceeds() throws Exception {
        CompletableFuture<DeliveryOutcome> outcome = runPastTheTimeoutAHandlerThatIgnoresInterrupts();

        release.countDown();

        assertThat(outcomeOf(outcome)).isEqualTo(new DeliveryOutcome.Success());
        await().atMost(PATIENCE).until(() -> timer.pending() == 0);
        assertThat(counters.abandoned.sum()).isZero();
        assertThat(counters.abandonedOutstanding.sum() + counters.abandonedCleared.sum()).isZero();
    }

    @Test
    void aHandlerTheHostInterruptsIsHandedBackDeferredInsteadOfFailing() throws Exception {
        CompletableFuture<DeliveryOutcome> outcome = runStarted(payload -> release.await());

        handlerThread.shutdownNow();

        assertThat(outcomeOf(outcome)).isInstanceOfSatisfying(DeliveryOutcome.Deferred.class,
                deferred -> assertThat(deferred.reason()).contains("interrupted by the host"));
        await().atMost(PATIENCE).until(() -> timer.pending() == 0);
    }

    @Test
    void aHandlerThatKeepsTheHostsInterruptFlagAndThrowsSomethingElseIsDeferredToo() throws Exception {
        CompletableFuture<DeliveryOutcome> outcome = runStarted(payload -> {
            try {
                release.await();
            } catch (InterruptedException stopping) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("gave up");
            }
        });

        handlerThread.shutdownNow();

        assertThat(outcomeOf(outcome)).isInstanceOf(DeliveryOutcome.Deferred.class);
    }

    @Test
    void whatTheHandlerThrowsIsClassified() throws Exception {
        assertThat(outcomeOf(run(payload -> {
            throw Outcome.terminal("cancelled order");
        }))).isEqualTo(new DeliveryOutcome.Dead("SQL0055 delivery cannot succeed: cancelled order"));
    }

    @Test
    void aPayloadThatDoesNotDecodeIsDeadWithoutRunningTheHandlerOrStartingTimers() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        Delivery garbled = new Delivery(7, null, null, null, "[\"not\", \"a\", \"number\"]", null, DELIVERY.createdAt(),
                OPTIONS, 1, 0, Delivery.RunRecords.UNRECORDED);

        CompletableFuture<DeliveryOutcome> outcome = runner(payload -> runs.incrementAndGet()).run(garbled);

        assertThat(outcomeOf(outcome)).isInstanceOfSatisfying(DeliveryOutcome.Dead.class, dead -> assertThat(
                dead.error()).startsWith("SQL0112 message 7 cannot be decoded as " + Numbered.class.getName()));
        assertThat(runs).hasValue(0);
        assertThat(timer.pending()).isZero();
    }

    @Test
    void aTaskTheExecutorRefusesIsHandedBackDeferredWithoutStartingTimers() throws Exception {
        handlerThread.shutdown();

        DeliveryOutcome outcome = outcomeOf(run(payload -> { }));

        assertThat(outcome).isInstanceOfSatisfying(DeliveryOutcome.Deferred.class, deferred -> assertThat(
                deferred.reason()).startsWith("the handler executor refused the task")
                .endsWith("handed back without counting the attempt"));
        assertThat(timer.pending()).isZero();
    }

    /** As on a server that accepts a task while the application stops and then never runs it. */
    @Test
    void aTaskTheExecutorHasNotStartedByTheTimeoutIsHandedBackDeferredThenAndNeverRuns() throws Exception {
        CountDownLatch occupied = new CountDownLatch(1);
        handlerThread.submit(() -> {
            occupied.countDown();
            release.await();
            return null;
        });
        assertThat(occupied.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the handler thread is busy").isTrue();
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<DeliveryOutcome> outcome = run(payload -> runs.incrementAndGet());

        timer.advance(TIMEOUT.minus(JUST_BEFORE));
        assertThat(outcome).as("still inside its timeout").isNotDone();
        timer.advance(JUST_BEFORE);

        assertThat(outcome).isCompletedWithValue(new DeliveryOutcome.Deferred("the handler executor had not started"
                + " the task within its PT30S timeout; handed back without counting the attempt"));
        assertThat(timer.pending()).as("no grace period: nothing runs").isZero();
        release.countDown();
        handlerThread.shutdown();
        assertThat(handlerThread.awaitTermination(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(runs).as("the handler never ran").hasValue(0);
        assertThat(counters.abandoned.sum()).isZero();
    }

    /** Under a 50 ms threshold a 51 ms dispatch is slow, a 50 ms one is not; the line comes before the outcome. */
    @ParameterizedTest(name = "{0} ms")
    @ValueSource(longs = {50, 51})
    void aDispatchOverTheSlowDispatchThresholdIsLoggedBeforeItsOutcomeIsHandedOn(long tookMillis) throws Exception {
        slowDispatchThreshold = Duration.ofMillis(50);
        CompletableFuture<DeliveryOutcome> outcome = runStarted(payload -> release.await());

        timer.advance(Duration.ofMillis(tookMillis));
        release.countDown();

        assertThat(outcomeOf(outcome)).isEqualTo(new DeliveryOutcome.Success());
        List<String> slow = List.of("SQL0039 dispatch of message 7 of consumer group \"billing\" on stream"
                + " \"orders\" took 51 ms, over the slow-dispatch threshold of 50 ms");
        assertThat(logger.withCode("SQL0039")).isEqualTo(tookMillis > 50 ? slow : List.of());
    }

    private CompletableFuture<DeliveryOutcome> run(MessageHandler<Numbered> handler) {
        return runner(handler).run(DELIVERY);
    }

    /** Runs {@code handler} and returns once it is running. */
    private CompletableFuture<DeliveryOutcome> runStarted(MessageHandler<Numbered> handler) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<DeliveryOutcome> outcome = run(payload -> {
            started.countDown();
            handler.handle(payload);
        });
        assertThat(started.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the handler started").isTrue();
        return outcome;
    }

    /** Runs a handler that waits for {@link #release} through interrupts, to its timeout and its interrupt. */
    private CompletableFuture<DeliveryOutcome> runPastTheTimeoutAHandlerThatIgnoresInterrupts()
            throws InterruptedException {
        CountDownLatch interrupted = new CountDownLatch(1);
        CompletableFuture<DeliveryOutcome> outcome = runStarted(payload -> awaitIgnoringInterrupts(release, interrupted));
        timer.advance(TIMEOUT);
        assertThat(interrupted.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("interrupted at the timeout").isTrue();
        return outcome;
    }

    private HandlerRunner<Numbered> runner(MessageHandler<Numbered> handler) {
        return new HandlerRunner<>(engine, GROUP, Numbered.class, (delivery, payload) -> handler.handle(payload),
                handlerThread, timer, new LeaseBudget(GRACE, Duration.ZERO), counters,
                new SlowDispatchAlarm(engine, GROUP, slowDispatchThreshold));
    }

    private static DeliveryOutcome outcomeOf(CompletableFuture<DeliveryOutcome> outcome) throws Exception {
        return outcome.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }

    /** Waits for {@code release} however often the thread is interrupted, counting the first interrupt down. */
    private static void awaitIgnoringInterrupts(CountDownLatch release, CountDownLatch interrupted) {
        while (true) {
            try {
                release.await();
                return;
            } catch (InterruptedException ignored) {
                interrupted.countDown();
            }
        }
    }
}
