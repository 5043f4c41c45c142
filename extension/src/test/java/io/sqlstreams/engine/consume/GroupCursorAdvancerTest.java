package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.engine.consume.SessionTestKit.Work;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * Issue 14 §2: a group's {@code cursor_advancer} (target 1) runs through the sessions' fleets, so one session of
 * all the group's instances advances the committed cursor, and another takes over when the holder stops.
 */
@PostgresTest
class GroupCursorAdvancerTest {
    private static final String GROUP = "advanced";
    private static final Duration INSTANCE_TTL = Duration.ofSeconds(4);
    private static final ConsumerConfig DECLARATION = quickRetries(3, Duration.ofSeconds(2));
    private static final String ADVANCER_ROWS = "FROM {s}.worker_instance i JOIN {s}.worker_config w"
            + " ON w.id = i.worker_id WHERE w.consumer_group_id = ? AND w.name = 'cursor_advancer'";

    private final Ledger ledger = new Ledger();
    private Rig rig;
    private Sql sql;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "advanced");
        sql = new Sql(database);
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void twoSessionsOfOneGroupRunOneAdvancerAndTheCursorAdvances() throws Exception {
        RecordingLogger otherLogger = new RecordingLogger();
        ConsumerSession first = rig.start(rig.register(GROUP, DECLARATION),
                ledger.handler("first", Work.SUCCEED), options());
        ConsumerSession second = rig.start(rig.streamOfAnotherClient(otherLogger).consumer(GROUP)
                .register(DECLARATION), ledger.handler("second", Work.SUCCEED), options());
        long groupId = rig.groupId(GROUP);

        List<Long> ids = rig.produceNumbered(20);

        await().alias("every message handled").atMost(Duration.ofSeconds(20))
                .until(() -> ledger.handled().size() == 20);
        await().alias("the committed cursor reached the last message").atMost(Duration.ofSeconds(20))
                .until(() -> committed() == ids.get(ids.size() - 1));
        awaitHeartbeats(first, second);
        awaitHeartbeats(first, second);
        assertThat(liveAdvancers(groupId)).as("live cursor_advancer instances of the group").isEqualTo(1);
        assertThat(claimedAdvancerInstances(groupId)).as("cursor_advancer instances ever claimed").isEqualTo(1);
    }

    @Test
    void anotherSessionTakesTheAdvancerOverWhenTheHolderStops() throws Exception {
        ConsumerSession holder = rig.start(rig.register(GROUP, DECLARATION),
                ledger.handler("holder", Work.SUCCEED), options());
        long groupId = rig.groupId(GROUP);
        await().alias("the first session claimed the advancer").atMost(Duration.ofSeconds(10))
                .until(() -> liveAdvancers(groupId) == 1);
        List<String> holderClaim = liveAdvancerIds(groupId);
        ConsumerSession waiting = rig.start(rig.streamOfAnotherClient(new RecordingLogger()).consumer(GROUP)
                .register(DECLARATION), ledger.handler("waiting", Work.SUCCEED), options());
        long firstBatchEnd = rig.produceNumbered(5).get(4);
        await().alias("the holder's advancer committed the first batch").atMost(Duration.ofSeconds(20))
                .until(() -> committed() == firstBatchEnd);

        holder.stop(Duration.ofSeconds(5));
        assertThat(sql.strings("SELECT i.id::text " + ADVANCER_ROWS, groupId))
                .as("the stopped holder released its claim").doesNotContainAnyElementsOf(holderClaim);

        await().alias("the waiting session claimed the advancer within InstanceTTL + one heartbeat")
                .atMost(INSTANCE_TTL.plus(INSTANCE_TTL.dividedBy(2)))
                .until(() -> liveAdvancers(groupId) == 1);
        assertThat(liveAdvancerIds(groupId)).as("a claim of its own").doesNotContainAnyElementsOf(holderClaim);
        assertThat(waiting.isRunning()).isTrue();
        long secondBatchEnd = rig.produce(6);
        await().alias("the cursor keeps advancing behind the remaining session").atMost(Duration.ofSeconds(20))
                .until(() -> committed() == secondBatchEnd);
        assertThat(claimedAdvancerInstances(groupId)).as("one claim by each session").isEqualTo(2);
    }

    /**
     * The session's claim polls, refreshes and heartbeats are 15 s and more apart here, so the advancer's next tick,
     * a second away, is what meets the destroyed group first; the session then ends with SQL0014 as it always has.
     */
    @Test
    void aDestroyedGroupEndsItsAdvancerWithSql0106AndItsSessionWithSql0014() throws Exception {
        Duration slowUpkeep = Duration.ofSeconds(30);
        ConsumerSession session = rig.start(rig.register(GROUP, DECLARATION),
                ledger.handler("doomed", Work.SUCCEED),
                fastSession().claimPollRate(slowUpkeep).instanceTtl(slowUpkeep).configRefreshInterval(slowUpkeep)
                        .build());
        long groupId = rig.groupId(GROUP);
        await().alias("the session claimed the advancer").atMost(Duration.ofSeconds(10))
                .until(() -> liveAdvancers(groupId) == 1);

        rig.stream.consumer(GROUP).destroy(DestroyOptions.forced());

        await().alias("the advancer's runner ends").atMost(Duration.ofSeconds(10))
                .until(() -> !rig.logger.withCode("SQL0106").isEmpty());
        assertThat(rig.logger.withCode("SQL0106")).as("the advancer's end").singleElement().asString()
                .contains("worker cursor_advancer of consumer group \"" + GROUP + "\"", "its group was destroyed");
        await().alias("the session stops").atMost(slowUpkeep).until(() -> !session.isRunning());
        assertThat(session.failure()).get().isInstanceOfSatisfying(SqlStreamsException.class,
                failure -> assertThat(failure.code()).isEqualTo(Code.SQL0014));
        assertThat(rig.logger.withCode("SQL0141")).as("the fleet never failed to read the rows").isEmpty();
        assertThat(rig.logger.withCode("SQL0041")).hasSize(1);
    }

    private static ConsumeOptions options() {
        return fastSession().instanceTtl(INSTANCE_TTL).build();
    }

    /** Waits for a heartbeat of each session after now; after two, each has reconciled its fleet at one. */
    private static void awaitHeartbeats(ConsumerSession... sessions) {
        Instant now = Instant.now();
        await().alias("a heartbeat of every session").atMost(Duration.ofSeconds(20))
                .until(() -> Arrays.stream(sessions).allMatch(session -> session.lastHeartbeat().isAfter(now)));
    }

    private long committed() {
        return rig.stream.consumer(GROUP).inspect().committed();
    }

    private long liveAdvancers(long groupId) throws SQLException {
        return Long.parseLong(sql.strings("SELECT count(*) " + ADVANCER_ROWS + " AND i.expires_at > now()",
                groupId).get(0));
    }

    private List<String> liveAdvancerIds(long groupId) throws SQLException {
        return sql.strings("SELECT i.id::text " + ADVANCER_ROWS + " AND i.expires_at > now()", groupId);
    }

    /** Distinct cursor_advancer instances the group's claims and renewals recorded. */
    private long claimedAdvancerInstances(long groupId) throws SQLException {
        return Long.parseLong(sql.strings("SELECT count(DISTINCT l.worker_instance_id) FROM {s}.worker_instance_log l"
                + " JOIN {s}.worker_config w ON w.id = l.worker_id WHERE w.consumer_group_id = ?"
                + " AND w.name = 'cursor_advancer'", groupId).get(0));
    }
}
