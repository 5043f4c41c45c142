package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.sqlstreams.ConsumerSession;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.engine.consume.SessionTestKit.Work;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * Issue 13 §6.3: a session whose instance row expired (a database outage longer than InstanceTTL) or was removed
 * claims a fresh one and goes on delivering, counted and logged with SQL0114, instead of dying with SQL0012.
 */
@PostgresTest
class SessionInstanceReclaimTest {
    private static final String GROUP = "reclaims";
    private static final String MESSAGE_CONSUMER_ROW = "FROM {s}.worker_config w WHERE w.id = i.worker_id"
            + " AND w.consumer_group_id = ? AND w.name = 'message_consumer'";

    private final Ledger ledger = new Ledger();
    private Rig rig;
    private Sql sql;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "reclaims");
        sql = new Sql(database);
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /** How the row is lost under the running session. */
    enum Loss {
        /** as after an outage: the row is there but expired, so a renewal may no longer take it */
        EXPIRED("UPDATE {s}.worker_instance i SET expires_at = now() - interval '1 second' " + MESSAGE_CONSUMER_ROW),
        /** as the manager's sweep does with an expired row */
        DELETED("DELETE FROM {s}.worker_instance i USING " + MESSAGE_CONSUMER_ROW.substring("FROM ".length()));

        private final String statement;

        Loss(String statement) {
            this.statement = statement;
        }
    }

    @ParameterizedTest
    @EnumSource(Loss.class)
    void aLostInstanceRowIsReplacedAndTheSessionGoesOnDelivering(Loss loss) throws Exception {
        ConsumerSession session = rig.start(rig.register(GROUP, quickRetries(3, Duration.ofSeconds(2))),
                ledger.handler("lasting", Work.SUCCEED), fastSession().build());
        rig.produce(1);
        ledger.awaitFirstRun(1, Duration.ofSeconds(10));
        long groupId = rig.groupId(GROUP);
        List<String> before = messageConsumerRows(groupId);
        assertThat(before).hasSize(1);

        assertThat(sql.update(loss.statement, groupId)).as("rows lost").isEqualTo(1);

        await().alias("the next heartbeat replaced the row").atMost(Duration.ofSeconds(10))
                .until(() -> session.counters().instanceReclaims() == 1);
        assertThat(session.isRunning()).isTrue();
        assertThat(session.failure()).isEmpty();
        assertThat(messageConsumerRows(groupId)).as("a fresh, live row").hasSize(1).doesNotContainAnyElementsOf(before);
        assertThat(rig.sessionRows(GROUP)).as("the lost row replaced, not joined").isEqualTo(2);
        assertThat(rig.logger.withCode("SQL0114")).singleElement()
                .satisfies(line -> assertThat(line).contains("message_consumer").contains("goes on"));
        assertThat(rig.logger.withCode("SQL0012")).isEmpty();
        assertThat(rig.logger.withCode("SQL0034")).isEmpty();

        rig.produce(2);
        assertThat(ledger.awaitFirstRun(2, Duration.ofSeconds(10)).session()).isEqualTo("lasting");
        session.close();
        assertThat(rig.stopLines(session)).singleElement()
                .satisfies(line -> assertThat(SessionTestKit.counters(line)).containsEntry("instance_reclaim_count", 1L));
        assertThat(rig.instanceRows(GROUP)).as("the fresh row is released on close").isZero();
    }

    /** The ids of the group's live message_consumer rows. */
    private List<String> messageConsumerRows(long groupId) throws Exception {
        return sql.strings("SELECT i.id::text FROM {s}.worker_instance i, {s}.worker_config w WHERE w.id = i.worker_id"
                + " AND w.consumer_group_id = ? AND w.name = 'message_consumer' AND i.expires_at > now()", groupId);
    }
}
