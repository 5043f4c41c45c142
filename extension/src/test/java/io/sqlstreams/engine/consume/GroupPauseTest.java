package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/**
 * Pause and resume of a group with two live sessions (ConfigRefreshInterval 200 ms): the message a session holds
 * when the pause arrives finishes and commits, nothing new is claimed while a second, unpaused group of the same
 * stream handles everything produced meanwhile, and resume drains the backlog.
 */
@PostgresTest
class GroupPauseTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration REFRESH = Duration.ofMillis(200);

    private final Ledger paused = new Ledger();
    private final Ledger witness = new Ledger();
    private Rig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "pause");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void aPausedGroupFinishesWhatItHoldsClaimsNothingAndDrainsWhenResumed() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<ConsumerSession> sessions = List.of(
                rig.start(billing(), paused.handler("a", run -> hold(run.n(), holding, release)), options()),
                rig.start(billing(), paused.handler("b", run -> hold(run.n(), holding, release)), options()));
        rig.start(rig.register("audit", quickRetries(3, Duration.ofSeconds(10))), witness.handler("w", run -> { }),
                options());
        ConsumerHandle<Numbered> group = rig.stream.consumer("billing");
        long first = rig.produce(1);
        assertThat(holding.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("message 1 is in flight").isTrue();

        OperatorAction pause = group.pause("ops").orElseThrow();
        await("every session sees the pause").atMost(REFRESH.multipliedBy(10))
                .until(() -> sessions.stream().allMatch(ConsumerSession::isPaused));
        release.countDown();
        await("the message in flight finishes and commits").atMost(WAIT)
                .until(() -> group.inspect().committed() >= first);
        LongStream.rangeClosed(2, 51).forEach(rig::produce);
        await("the unpaused group handled everything").atMost(WAIT).until(() -> witness.handled().size() == 51);

        assertThat(paused.handled()).as("the paused group claimed nothing new").containsExactly(1L);
        assertThat(group.pause("ops")).as("already paused: nothing recorded").isEmpty();
        assertThat(group.inspect().pause()).isEqualTo(pause);
        assertThat(group.paused()).contains(pause);
        assertThat(rig.logger.withCode("SQL0150")).singleElement().asString().contains("paused by ops");

        OperatorAction resume = group.resume("ops").orElseThrow();
        await("resume drains the backlog").atMost(WAIT).until(() -> paused.handled().size() == 51);
        await().atMost(REFRESH.multipliedBy(10)).until(() -> sessions.stream().noneMatch(ConsumerSession::isPaused));
        assertThat(group.resume("ops")).as("not paused: nothing recorded").isEmpty();
        assertThat(group.inspect().paused()).isFalse();
        assertThat(group.paused()).isEmpty();
        assertThat(group.actions(10)).containsExactly(resume, pause);
        assertThat(sessions).allMatch(ConsumerSession::isRunning);
    }

    private ConsumerInstance<Numbered> billing() {
        return rig.register("billing", quickRetries(3, Duration.ofSeconds(10)));
    }

    private static void hold(long n, CountDownLatch holding, CountDownLatch release) throws InterruptedException {
        if (n == 1) {
            holding.countDown();
            release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static io.sqlstreams.ConsumeOptions options() {
        return fastSession().configRefreshInterval(REFRESH).build();
    }
}
