package io.sqlstreams.jakarta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.jakarta.beans.Payment;
import io.sqlstreams.jakarta.beans.TransactionalObservers;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * A {@code @Transactional} {@code @ConsumerGroup} observer in Weld SE, with {@link SimulatedTransactions} standing in
 * for the server's JTA: each message runs in a transaction the library begins, the observer's write through the
 * application's data source commits with the message's outcome, and a failure rolls it back before the retry.
 */
@PostgresTest
class TransactionalObserverTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String GROUP_KEY = "sqlstreams.groups.\"charge-cards\".";
    private static final Map<String, String> FAST_GROUP = Map.of(
            GROUP_KEY + "message.retry.max-retries", "3",
            GROUP_KEY + "exception-initial-backoff", "100ms",
            GROUP_KEY + "claim-poll-rate", "50ms");

    private TestDatabase database;
    private StreamHandle<Payment> stream;
    private Sql sql;

    @BeforeEach
    void createTable(TestDatabase database) throws Exception {
        this.database = database;
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        this.stream = client.stream("payments.requested", Payment.class);
        this.sql = new Sql(database);
        TransactionalObservers.RUNS.clear();
        sql.update("CREATE TABLE " + TransactionalObservers.TABLE + " (message_id bigint PRIMARY KEY,"
                + " payment_order text NOT NULL)");
    }

    @AfterEach
    void dropTable() throws Exception {
        stream.get().ifPresent(registered -> stream.destroy(DestroyOptions.forced()));
        sql.update("DROP TABLE IF EXISTS " + TransactionalObservers.TABLE);
    }

    @Test
    void eachWriteCommitsOnceWithItsMessageAndAFailureRollsItBackBeforeTheRetry() throws Exception {
        try (CdiContainer container = CdiContainer.start(database, FAST_GROUP, TransactionalObservers.class)) {
            List<Long> ids = new ArrayList<>();
            long failing;
            try (Producer<Payment> producer = stream.producer().register()) {
                for (int i = 0; i < 20; i++) {
                    ids.add(producer.produce(new Payment("order-" + i, "succeed")).id());
                }
                failing = producer.produce(new Payment("order-failing", "fail-once")).id();
                ids.add(failing);
            }

            await().atMost(WAIT).untilAsserted(() -> {
                ConsumerInspection group = stream.consumer("charge-cards").inspect();
                assertThat(group.committed()).isGreaterThanOrEqualTo(failing);
                assertThat(group.exceptions()).isEmpty();
                assertThat(group.openLeases()).isZero();
            });

            assertThat(sql.rows("SELECT message_id FROM " + TransactionalObservers.TABLE).stream()
                    .map(row -> ((Number) row.get(0)).longValue()).toList())
                    .as("one row per message: the failed attempt's row was rolled back")
                    .containsExactlyInAnyOrderElementsOf(ids);
            assertThat(TransactionalObservers.RUNS).as("the failing message ran twice, every other once")
                    .hasSize(ids.size() + 1).containsOnlyElementsOf(ids);
            assertThat(TransactionalObservers.RUNS.stream().filter(id -> id == failing)).hasSize(2);
        }
    }

    @Test
    void anObserverAskingForATransactionOfItsOwnFailsTheDeploymentWithItsCode() {
        assertThatThrownBy(() -> CdiContainer.start(database, FAST_GROUP, TransactionalObservers.class,
                TransactionalObservers.RequiresNew.class).close())
                .hasMessageContaining("SQL0158 the observer of group \"archive\" on stream \"audit\"")
                .hasMessageContaining("is @Transactional(REQUIRES_NEW)");
        assertThat(stream.get()).as("nothing was registered").isEmpty();
    }
}
