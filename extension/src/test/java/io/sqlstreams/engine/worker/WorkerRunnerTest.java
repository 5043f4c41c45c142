package io.sqlstreams.engine.worker;

import static io.sqlstreams.engine.worker.WorkerRig.POLL_RATE;
import static io.sqlstreams.engine.worker.WorkerRig.TTL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/**
 * Digest §7.1: a worker instance's ticks, heartbeats, failure streak and ending, on a manual scheduler so every
 * delay is the one the runner asked for; and two runners on threads of their own handing one worker over.
 */
@PostgresTest
class WorkerRunnerTest {
    /** nextDouble() = 0.5: no jitter, so every successful tick waits the poll rate exactly. */
    private static final RandomGenerator MIDDLE = () -> 1L << 63;
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    /** Written by runner threads in the handover test. */
    private final List<SqlStreamsException> endings = new CopyOnWriteArrayList<>();
    private final List<WorkerRunner> runners = new ArrayList<>();
    private final AtomicInteger ticks = new AtomicInteger();
    private final WorkerTask counting = ticks::incrementAndGet;
    private final WorkerTask failing = () -> {
        ticks.incrementAndGet();
        throw new IllegalStateException("tick " + ticks.get() + " failed");
    };
    private WorkerRig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = new WorkerRig(database);
    }

    @AfterEach
    void stopRunners() {
        runners.forEach(WorkerRunner::stop);
    }

    private WorkerRunner run(long workerId, WorkerSettings settings, WorkerTask task, RandomGenerator random) {
        WorkerRunner runner = rig.runner(workerId, settings, task, (ended, failure) -> endings.add(failure), random);
        runners.add(runner);
        return runner;
    }

    private WorkerRunner run(long workerId, WorkerTask task) {
        return run(workerId, WorkerRig.settings(), task, MIDDLE);
    }

    @Test
    void aRunnerClaimsTicksAtOnceThenEveryPollRateAndHeartbeatsEveryHalfTtl() throws Exception {
        long worker = rig.worker("runner.beats", 1);
        WorkerRunner runner = run(worker, counting);

        rig.scheduler.runDue();
        assertThat(runner.holding()).isTrue();
        assertThat(ticks).as("the first tick follows the claim").hasValue(1);
        assertThat(rig.scheduler.nextDelay()).isEqualTo(POLL_RATE);
        long instance = runner.instanceId().orElseThrow();

        rig.scheduler.advance(TTL.dividedBy(2));

        assertThat(ticks).hasValue(1 + (int) (TTL.dividedBy(2).toSeconds() / POLL_RATE.toSeconds()));
        assertThat(rig.loggedAttempts(instance)).as("the claim's and the heartbeat's snapshots").containsExactly(0, 0);
        assertThat(rig.liveInstances(worker)).isEqualTo(1);
        assertThat(endings).isEmpty();
    }

    @Test
    void anExpiredRowEndsTheRunnerWithSql0012AndOneSql0034Line() throws Exception {
        long worker = rig.worker("runner.lost", 1);
        WorkerRunner runner = run(worker, counting);
        rig.scheduler.runDue();
        rig.expire(runner.instanceId().orElseThrow());

        rig.scheduler.advance(TTL.dividedBy(2));
        int ticksWhenLost = ticks.get();
        rig.scheduler.advance(TTL);

        assertThat(runner.failure()).hasValueSatisfying(failure -> assertThat(failure.code()).isEqualTo(Code.SQL0012));
        assertThat(endings).singleElement().satisfies(failure -> assertThat(failure.code()).isEqualTo(Code.SQL0012));
        assertThat(rig.logger.withCode("SQL0034")).singleElement()
                .satisfies(line -> assertThat(line).contains("expired or was removed"));
        assertThat(ticks).as("no tick after the loss").hasValue(ticksWhenLost);
        assertThat(rig.scheduler.pending()).isZero();
        assertThat(runner.holding()).isFalse();
    }

    @Test
    void suspensionEndsTheRunnerWithSql0107AtItsNextHeartbeat() throws Exception {
        long worker = rig.worker("runner.suspended", 1);
        WorkerRunner runner = run(worker, counting);
        rig.scheduler.runDue();
        rig.setTarget(worker, 0);

        rig.scheduler.advance(TTL.dividedBy(2).minusMillis(1));
        assertThat(runner.holding()).as("still holding before its heartbeat").isTrue();
        rig.scheduler.advance(Duration.ofMillis(1));

        assertThat(runner.failure()).hasValueSatisfying(failure -> assertThat(failure.code()).isEqualTo(Code.SQL0107));
        assertThat(rig.logger.withCode("SQL0107")).singleElement();
        assertThat(rig.instances(worker)).as("the row is released").isZero();
        assertThat(rig.scheduler.pending()).isZero();
    }

    @Test
    void aTickThatFindsItsWorkerGoneEndsTheRunnerWithSql0106() throws Exception {
        long worker = rig.worker("runner.gone", 1);
        WorkerRunner runner = run(worker, () -> {
            ticks.incrementAndGet();
            throw new SqlStreamsException(Code.SQL0106, "the worker's row is gone with its owner");
        });

        rig.scheduler.runDue();

        assertThat(runner.failure()).hasValueSatisfying(failure -> assertThat(failure.code()).isEqualTo(Code.SQL0106));
        assertThat(endings).singleElement().satisfies(failure -> assertThat(failure.code()).isEqualTo(Code.SQL0106));
        assertThat(rig.logger.withCode("SQL0106")).singleElement();
        assertThat(runner.attempts()).as("not counted as a failed tick").isZero();
        assertThat(rig.instances(worker)).as("the row is released").isZero();
        assertThat(rig.scheduler.pending()).isZero();
        assertThat(ticks).hasValue(1);
    }

    @Test
    void aRequestedStopReleasesTheRowAndEndsNothingElse() throws Exception {
        long worker = rig.worker("runner.stop", 1);
        WorkerRunner runner = run(worker, counting);
        rig.scheduler.runDue();

        runner.stop();

        assertThat(rig.instances(worker)).isZero();
        assertThat(rig.scheduler.pending()).as("nothing left scheduled").isZero();
        assertThat(runner.failure()).isEmpty();
        assertThat(endings).isEmpty();
    }

    @Test
    void failedTicksBackOffOnTheCurveThenAtItsCapWithOneSql0036Line() throws Exception {
        long worker = rig.worker("runner.streak", 1);
        AtomicBoolean healthy = new AtomicBoolean();
        WorkerRunner runner = run(worker, () -> {
            ticks.incrementAndGet();
            if (!healthy.get()) {
                throw new IllegalStateException("the database behind the tick is down");
            }
        });
        rig.scheduler.runDue();
        long instance = runner.instanceId().orElseThrow();

        List<Duration> delays = new ArrayList<>();
        List<Integer> streaks = new ArrayList<>();
        for (int failure = 1; failure <= 6; failure++) {
            delays.add(rig.scheduler.nextDelay());
            streaks.add(rig.rowAttempts(instance));
            if (failure < 6) {
                rig.scheduler.advance(rig.scheduler.nextDelay());
            }
        }

        assertThat(delays).as("1s, 2s, 4s on the curve, then its 5s cap").containsExactly(Duration.ofSeconds(1),
                Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(5), Duration.ofSeconds(5),
                Duration.ofSeconds(5));
        assertThat(streaks).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(runner.attempts()).isEqualTo(6);
        assertThat(rig.logger.withCode("SQL0036")).singleElement()
                .satisfies(line -> assertThat(line).contains("failed 4 ticks in a row").contains("5000ms")
                        .contains("the database behind the tick is down"));

        healthy.set(true);
        rig.scheduler.advance(rig.scheduler.nextDelay());

        assertThat(runner.attempts()).as("a success resets the streak").isZero();
        assertThat(rig.rowAttempts(instance)).isZero();
        assertThat(rig.scheduler.nextDelay()).isEqualTo(POLL_RATE);
        assertThat(endings).isEmpty();
    }

    @Test
    void theStreakReachesTheInstanceLogWithTheNextHeartbeat() throws Exception {
        long worker = rig.worker("runner.streak.logged", 1);
        WorkerRunner runner = run(worker, WorkerRig.settings().withInstanceTtl(Duration.ofSeconds(20)), failing,
                MIDDLE);
        rig.scheduler.runDue();
        long instance = runner.instanceId().orElseThrow();

        rig.scheduler.advance(Duration.ofSeconds(10));

        assertThat(ticks).as("failed ticks at 0s, 1s, 3s and 7s").hasValue(4);
        assertThat(rig.loggedAttempts(instance)).as("the claim's snapshot, then the heartbeat's at 10s")
                .containsExactly(0, 4);
    }

    @Test
    void successfulTicksAreSpacedWithinTheJitterFraction() throws Exception {
        long worker = rig.worker("runner.jitter", 1);
        run(worker, WorkerRig.settings().withInstanceTtl(Duration.ofHours(2)), counting, RandomGenerator.getDefault());
        rig.scheduler.runDue();

        List<Duration> delays = new ArrayList<>();
        for (int tick = 0; tick < 200; tick++) {
            delays.add(rig.scheduler.nextDelay());
            rig.scheduler.advance(rig.scheduler.nextDelay());
        }

        assertThat(delays).allSatisfy(delay -> assertThat(delay).isBetween(Duration.ofSeconds(9),
                Duration.ofSeconds(11)));
        assertThat(delays.stream().distinct().count()).as("jittered, not fixed").isGreaterThan(100);
    }

    @Test
    void theJitterReachesTheFractionAtTheEndsOfTheRandomRange() throws Exception {
        long lowest = rig.worker("runner.jitter.low", 1);
        run(lowest, WorkerRig.settings(), counting, () -> 0L);
        rig.scheduler.runDue();
        assertThat(rig.scheduler.nextDelay()).isEqualTo(Duration.ofSeconds(9));

        runners.get(0).stop();
        long highest = rig.worker("runner.jitter.high", 1);
        run(highest, WorkerRig.settings(), counting, () -> -1L);
        rig.scheduler.runDue();
        assertThat(rig.scheduler.nextDelay()).isBetween(Duration.ofMillis(10_999), Duration.ofSeconds(11));
    }

    @Test
    void aTickLongerThanThePollRateLogsSql0040() throws Exception {
        long worker = rig.worker("runner.slow", 1);
        List<Duration> durations = new ArrayList<>(List.of(POLL_RATE, POLL_RATE.plusSeconds(1)));
        run(worker, () -> rig.clock.advance(durations.remove(0)));

        rig.scheduler.runDue();
        assertThat(rig.logger.withCode("SQL0040")).as("a tick as long as the poll rate is not slow").isEmpty();
        rig.scheduler.advance(rig.scheduler.nextDelay());

        assertThat(rig.logger.withCode("SQL0040")).singleElement()
                .satisfies(line -> assertThat(line).contains("took 11000ms").contains("poll rate of 10000ms"));
    }

    @Test
    void aMissingWorkerEndsTheRunnerWithSql0106() {
        WorkerRunner runner = run(Long.MAX_VALUE, counting);

        rig.scheduler.runDue();

        assertThat(runner.failure()).hasValueSatisfying(failure -> assertThat(failure.code()).isEqualTo(Code.SQL0106));
        assertThat(rig.logger.withCode("SQL0106")).singleElement();
        assertThat(ticks).hasValue(0);
    }

    @Test
    void anInterruptedTickEndsTheRunnerUnderTheLoopPolicy() throws Exception {
        long worker = rig.worker("runner.interrupted", 1);
        WorkerRunner runner = run(worker, () -> {
            throw new InterruptedException("host shutting down");
        });

        rig.scheduler.runDue();

        assertThat(runner.failure()).hasValueSatisfying(failure -> assertThat(failure.code()).isEqualTo(Code.SQL0113));
        assertThat(rig.logger.withCode("SQL0113")).singleElement();
        assertThat(rig.instances(worker)).isZero();
    }

    @Test
    void aDeclinedRunnerKeepsTryingAndClaimsOnceTheHolderReleases() throws Exception {
        long worker = rig.worker("runner.handover", 1);
        WorkerRunner holder = run(worker, counting);
        rig.scheduler.runDue();
        WorkerRunner waiting = run(worker, counting);
        rig.scheduler.runDue();
        assertThat(holder.holding()).isTrue();
        assertThat(waiting.holding()).as("declined at the target").isFalse();

        rig.scheduler.advance(POLL_RATE);
        assertThat(waiting.holding()).as("declined again while the holder runs").isFalse();
        holder.stop();
        rig.scheduler.advance(POLL_RATE);

        assertThat(waiting.holding()).isTrue();
        assertThat(rig.liveInstances(worker)).isEqualTo(1);
        assertThat(endings).isEmpty();
    }

    @Test
    void onThreadsExactlyOneRunnerHoldsTheWorkerAndTheOtherTakesOverWhenItStops() throws Exception {
        long worker = rig.worker("handover.threads", 1);
        WorkerSettings fast = WorkerSettings.of(Duration.ofMillis(50)).withInstanceTtl(Duration.ofSeconds(30));
        List<AtomicInteger> counts = List.of(new AtomicInteger(), new AtomicInteger());
        for (AtomicInteger count : counts) {
            runners.add(WorkerRunner.start(rig.engine, worker, "worker handover.threads", "handover-" + runners.size(),
                    fast, count::incrementAndGet, (ended, failure) -> endings.add(failure)));
        }

        await().alias("one runner claimed").atMost(PATIENCE).until(() -> holders().size() == 1);
        int holder = runners.indexOf(holders().get(0));
        int other = 1 - holder;
        await().alias("the holder ticks").atMost(PATIENCE).until(() -> counts.get(holder).get() >= 3);
        assertThat(runners.get(other).holding()).isFalse();
        assertThat(counts.get(other)).as("a runner without the claim does not tick").hasValue(0);
        assertThat(rig.liveInstances(worker)).isEqualTo(1);

        runners.get(holder).stop();

        await().alias("the other runner took over").atMost(PATIENCE).until(runners.get(other)::holding);
        await().alias("and ticks").atMost(PATIENCE).until(() -> counts.get(other).get() >= 1);
        assertThat(rig.liveInstances(worker)).isEqualTo(1);
        assertThat(endings).isEmpty();
    }

    private List<WorkerRunner> holders() {
        return runners.stream().filter(WorkerRunner::holding).toList();
    }

    @ParameterizedTest
    @ValueSource(doubles = {1.0, -0.1, Double.NaN})
    void aJitterFractionOutsideZeroToOneIsSql0108(double fraction) {
        WorkerSettings settings = WorkerRig.settings().withJitterFraction(fraction);

        assertThatThrownBy(() -> WorkerRunner.start(rig.engine, 1, "worker", "worker", settings, counting,
                (ended, failure) -> endings.add(failure)))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(Code.SQL0108);
                    assertThat(failure.violations()).singleElement()
                            .satisfies(violation -> assertThat(violation.property()).isEqualTo("worker.jitterFraction"));
                });
    }
}
