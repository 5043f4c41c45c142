package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.DeliveryLedger.Run;
import io.sqlstreams.testing.PostgresTest;

/**
 * Sessions whose plain handler runs in the host's transactions ({@link ThreadTransactions}, as a server's JTA
 * transactions are played here): each message in one of its own, with its effect row written on the host's
 * connection and its outcome recorded in the same transaction. The effects table's primary key rejects a second row
 * for a message, so a table holding exactly the expected messages proves each effect committed exactly once.
 */
@PostgresTest
class EnlistedHandlerTest extends TransactionalTestBase {

    @Test
    void threeSessionsCommitEveryEffectOnceEachWithItsMessage() throws Exception {
        DeliveryScenario scenario = scenario("enlisted", quickRetries(3, Duration.ofSeconds(5)), 300);
        Effects effects = effects("enlisted");
        ThreadTransactions host = new ThreadTransactions(database.dataSource());
        List<ConsumerSession> group = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            EngineClient own = EngineFixtures.client(database, logger);
            ConsumerInstance<Numbered> instance = own.stream(scenario.stream().name(), Numbered.class)
                    .consumer(scenario.group()).register(quickRetries(3, Duration.ofSeconds(5)));
            group.add(DeliveryScenario.startEnlisted(instance, ledger.handler((message, meta) ->
                    effects.write(host.current())), host, relaxedSession().batchLimit(20).build(), sessions));
        }

        await().atMost(PATIENCE).until(() -> scenario.tables().cursor().committed() >= scenario.last());

        assertThat(effects.messageIds()).containsExactlyInAnyOrderElementsOf(scenario.ids());
        assertThat(scenario.tables().exceptions()).isEmpty();
        assertThat(scenario.tables().leases()).isEmpty();
        assertThat(host.commits()).as("one host commit per message").isEqualTo(300);
        assertThat(ledger.duplicates()).isEmpty();
        assertThat(group.stream().mapToLong(session -> session.counters().success()).sum()).isEqualTo(300);
    }

    @Test
    void aFailingMessageLosesItsWritesAndItsRetryCommitsThemWithItsSuccess() throws Exception {
        DeliveryScenario scenario = scenario("enlistedfail", quickRetries(3, PATIENCE), 50);
        Effects effects = effects("enlistedfail");
        ThreadTransactions host = new ThreadTransactions(database.dataSource());
        long failing = scenario.ids().get(19);
        CountDownLatch retryMayRun = new CountDownLatch(1);
        scenario.startEnlisted(ledger.handler((message, meta) -> {
            if (meta.messageId() == failing && meta.attempt() == 2) {
                retryMayRun.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            }
            effects.write(host.current());
            if (meta.messageId() == failing && meta.attempt() == 1) {
                throw new IllegalStateException("fails once " + meta.messageId());
            }
        }), host, relaxedSession().batchLimit(50).queueSize(50).build(), sessions);
        List<Long> others = scenario.ids().stream().filter(id -> id != failing).toList();

        await().atMost(PATIENCE).until(() -> effects.messageIds().size() == others.size());

        assertThat(effects.messageIds()).as("every other message's effect; the failed one's rolled back")
                .containsExactlyInAnyOrderElementsOf(others);
        assertThat(scenario.tables().exception(failing)).as("the failure, committed with the next message")
                .hasValueSatisfying(row -> assertThat(row.lastError()).contains("fails once " + failing));
        retryMayRun.countDown();
        await().atMost(PATIENCE).until(() -> effects.has(failing) && scenario.tables().exceptions().isEmpty());

        assertThat(effects.messageIds()).containsExactlyInAnyOrderElementsOf(scenario.ids());
        assertThat(ledger.runsOf(failing)).extracting(Run::attempt).containsExactly(1, 2);
        assertThat(ledger.duplicates()).containsOnlyKeys(failing);
    }

    @Test
    void eachCommitMovesTheLeaseSoALostLeaseRunsAgainOnlyWhatHadNotCommitted() throws Exception {
        DeliveryScenario scenario = scenario("enlistedlost", quickRetries(3, Duration.ofSeconds(2)), 6);
        Effects effects = effects("enlistedlost");
        ThreadTransactions host = new ThreadTransactions(database.dataSource());
        long blocking = scenario.ids().get(3);
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ConsumerSession session = scenario.startEnlisted(ledger.handler((message, meta) -> {
            effects.write(host.current());
            if (meta.messageId() == blocking && ledger.runCount(blocking) == 1) {
                blocked.countDown();
                release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            }
        }), host, relaxedSession().batchLimit(10).build(), sessions);

        assertThat(blocked.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(scenario.tables().leases()).as("the lease, its low at the last committed message")
                .singleElement().satisfies(lease -> assertThat(lease.low()).isEqualTo(scenario.ids().get(2)));
        assertThat(effects.messageIds()).as("committed one by one").containsExactlyElementsOf(
                scenario.ids().subList(0, 3));
        assertThat(scenario.tables().replaceLeaseTokens()).as("leases taken from the session").isEqualTo(1);
        release.countDown();
        await().atMost(PATIENCE).until(() -> session.counters().leaseLost() >= 1);
        await("the rest reclaimed after its lease expired").atMost(PATIENCE)
                .until(() -> effects.messageIds().size() == 6 && scenario.tables().leases().isEmpty()
                        && scenario.tables().cursor().committed() >= scenario.last());

        assertThat(effects.messageIds()).containsExactlyInAnyOrderElementsOf(scenario.ids());
        for (long id : scenario.ids().subList(0, 3)) {
            assertThat(ledger.runCount(id)).as("runs of message %d, committed before the lease was lost", id)
                    .isEqualTo(1);
        }
        assertThat(ledger.runCount(blocking)).as("the message whose commit found the lease lost").isEqualTo(2);
        assertThat(scenario.tables().exceptions()).isEmpty();
    }
}
