package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.produceNumbered;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestPostgres;

/**
 * The fence is per stream: a group's fresh claims wait only for transactions that can still add a row below the
 * head they observed, that is the open producers of their own stream, never for a transaction that merely holds an
 * xid elsewhere on the server. Each test keeps one holder open while messages commit behind it.
 */
@PostgresTest
class StreamFenceTest extends DeliveryTestBase {
    private static final int MESSAGES = 20;
    private static final Duration DELIVERED_WITHIN = Duration.ofSeconds(30);
    /** How long a wait on the default threshold (10 s) has lasted when it is named. */
    private static final String DEFAULT_WARNING_WAIT = "(1[0-9]|2[0-9])";

    @Test
    void anUnrelatedTransactionIdleAfterAWriteInThisDatabaseHoldsNoStream() throws Exception {
        database.execute("CREATE TABLE " + database.schema() + ".unrelated (v int)");
        StreamHandle<Numbered> stream = consumedStream("fence.same-db");
        try (Connection holder = openTransaction()) {
            execute(holder, "INSERT INTO " + database.schema() + ".unrelated VALUES (1)");

            assertDeliveredWhileHeld(stream, "fence.same-db.g");
        }
    }

    @Test
    void aTransactionOfAnotherDatabaseHoldsNoStream() throws Exception {
        String other = database.schema() + "_other";
        database.execute("CREATE DATABASE " + other);
        try {
            StreamHandle<Numbered> stream = consumedStream("fence.other-db");
            try (Connection holder = DriverManager.getConnection(inDatabase(other))) {
                holder.setAutoCommit(false);
                execute(holder, "SELECT pg_current_xact_id()");

                assertDeliveredWhileHeld(stream, "fence.other-db.g");
            }
        } finally {
            database.execute("DROP DATABASE " + other + " WITH (FORCE)");
        }
    }

    @Test
    void anUnrelatedPreparedTransactionHoldsNoStream() throws Exception {
        HeldFence.assumePreparedTransactions(database.dataSource());
        database.execute("CREATE TABLE " + database.schema() + ".unrelated_prepared (v int)");
        StreamHandle<Numbered> stream = consumedStream("fence.prepared");
        String gid = database.schema() + "_unrelated";
        try (Connection holder = openTransaction()) {
            execute(holder, "INSERT INTO " + database.schema() + ".unrelated_prepared VALUES (1)");
            execute(holder, "PREPARE TRANSACTION '" + gid + "'");
        }
        try {
            assertDeliveredWhileHeld(stream, "fence.prepared.g");
        } finally {
            database.execute("ROLLBACK PREPARED '" + gid + "'");
        }
    }

    @Test
    void anOpenProducerOfAnotherStreamHoldsNoOtherStream() throws Exception {
        StreamHandle<Numbered> stream = consumedStream("fence.neighbour");
        StreamHandle<Numbered> busy = client.stream("fence.busy", Numbered.class);
        busy.register();
        try (Producer<Numbered> producer = busy.producer().register(); Connection holder = openTransaction()) {
            producer.produce(holder, new Numbered(0), ProduceOptions.none());

            assertDeliveredWhileHeld(stream, "fence.neighbour.g");
        }
    }

    @Test
    void anOpenProducerInsideASavepointHoldsItsStreamUntilItCommits() throws Exception {
        StreamHandle<Numbered> stream = consumedStream("fence.savepoint");
        startSession("fence.savepoint", "fence.savepoint.g");
        DeliveryTables tables = DeliveryTables.of(database, stream, "fence.savepoint.g");
        try (Producer<Numbered> producer = stream.producer().register(); Connection holder = openTransaction()) {
            execute(holder, "SAVEPOINT before_produce");
            long held = producer.produce(holder, new Numbered(1), ProduceOptions.none()).id();
            execute(holder, "RELEASE SAVEPOINT before_produce");
            long visible = producer.produce(new Numbered(2)).id();

            assertHeldBelow(tables, held, visible);
            assertThat(awaitFenceWarning(DEFAULT_WARNING_WAIT)).contains("\"fence.savepoint\"",
                    "pid " + HeldFence.backendPid(holder), "idle in transaction");
            holder.commit();

            await().atMost(DELIVERED_WITHIN).until(() -> tables.cursor().committed() >= visible);
            ledger.assertEachSucceededOnce(List.of(held, visible));
        }
    }

    @Test
    void aPreparedProducerHoldsItsStreamUntilCommitPrepared() throws Exception {
        HeldFence.assumePreparedTransactions(database.dataSource());
        StreamHandle<Numbered> stream = consumedStream("fence.prepared-producer");
        startSession("fence.prepared-producer", "fence.prepared-producer.g");
        DeliveryTables tables = DeliveryTables.of(database, stream, "fence.prepared-producer.g");
        String gid = database.schema() + "_producer";
        try (Producer<Numbered> producer = stream.producer().register()) {
            long held;
            try (Connection holder = openTransaction()) {
                held = producer.produce(holder, new Numbered(1), ProduceOptions.none()).id();
                execute(holder, "PREPARE TRANSACTION '" + gid + "'");
            }
            long visible;
            try {
                visible = producer.produce(new Numbered(2)).id();
                assertHeldBelow(tables, held, visible);
                assertThat(awaitFenceWarning(DEFAULT_WARNING_WAIT)).contains("\"fence.prepared-producer\"",
                        "no backend", "prepared as '" + gid + "'");
            } catch (AssertionError | RuntimeException e) {
                database.execute("ROLLBACK PREPARED '" + gid + "'");
                throw e;
            }
            database.execute("COMMIT PREPARED '" + gid + "'");

            await().atMost(DELIVERED_WITHIN).until(() -> tables.cursor().committed() >= visible);
            ledger.assertEachSucceededOnce(List.of(held, visible));
        }
    }

    @Test
    void aStreamDeclaredWithAShorterFenceWarningNamesItsHolderAfterThatLong() throws Exception {
        StreamHandle<Numbered> stream = client.stream("fence.quick-warning", Numbered.class);
        stream.register(StreamConfig.builder().fenceWarnAfter(Duration.ofSeconds(1)).build());
        startSession("fence.quick-warning", "fence.quick-warning.g");
        DeliveryTables tables = DeliveryTables.of(database, stream, "fence.quick-warning.g");
        try (Producer<Numbered> producer = stream.producer().register(); Connection holder = openTransaction()) {
            long held = producer.produce(holder, new Numbered(1), ProduceOptions.none()).id();
            long visible = producer.produce(new Numbered(2)).id();

            assertHeldBelow(tables, held, visible);
            assertThat(awaitFenceWarning("[1-9]")).as("before the default 10 s")
                    .contains("\"fence.quick-warning\"", "pid " + HeldFence.backendPid(holder), "idle in transaction");
            holder.commit();

            await().atMost(DELIVERED_WITHIN).until(() -> tables.cursor().committed() >= visible);
            ledger.assertEachSucceededOnce(List.of(held, visible));
        }
    }

    /** The claims polling every few milliseconds while the fence holds find nothing to change on the cursor row. */
    @Test
    void claimsThatFindNothingWhileItsProducerIsOpenLeaveTheCursorRowAsItIs() throws Exception {
        StreamHandle<Numbered> stream = client.stream("fence.idle-cursor", Numbered.class);
        stream.register(StreamConfig.builder().fenceWarnAfter(Duration.ofSeconds(1)).build());
        startSession("fence.idle-cursor", "fence.idle-cursor.g");
        DeliveryTables tables = DeliveryTables.of(database, stream, "fence.idle-cursor.g");
        try (Producer<Numbered> producer = stream.producer().register(); Connection holder = openTransaction()) {
            long held = producer.produce(holder, new Numbered(1), ProduceOptions.none()).id();
            long visible = producer.produce(new Numbered(2)).id();
            assertHeldBelow(tables, held, visible);
            String version = tables.cursorVersion();

            awaitFenceWarning("[1-9]");

            assertThat(tables.cursorVersion()).as("the cursor row was not rewritten by a second of fenced claims")
                    .isEqualTo(version);
            holder.commit();
            await().atMost(DELIVERED_WITHIN).until(() -> tables.cursor().committed() >= visible);
            ledger.assertEachSucceededOnce(List.of(held, visible));
        }
    }

    private StreamHandle<Numbered> consumedStream(String name) {
        StreamHandle<Numbered> stream = client.stream(name, Numbered.class);
        stream.register();
        return stream;
    }

    private void startSession(String streamName, String group) {
        EngineClient own = EngineFixtures.client(database, logger);
        sessions.add(own.stream(streamName, Numbered.class).consumer(group)
                .register(quickRetries(3, Duration.ofSeconds(5)))
                .start(ledger.succeeding(), fastSession().batchLimit(16).queueMargin(Duration.ofSeconds(5)).build()));
    }

    /** Messages committed while the holder stays open are all handled, in a fresh session of a fresh group. */
    private void assertDeliveredWhileHeld(StreamHandle<Numbered> stream, String group) {
        startSession(stream.name(), group);
        List<Long> ids = produceNumbered(stream, MESSAGES).stream().map(ProduceResult::id).toList();

        await().atMost(DELIVERED_WITHIN).pollInterval(20, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(ledger.succeeded()).containsAll(ids));
        ledger.assertEachSucceededOnce(ids);
    }

    /**
     * The group has observed past the committed message and stored that observation, yet claims nothing from the
     * open producer's id on, and nothing reaches a handler.
     */
    private void assertHeldBelow(DeliveryTables tables, long held, long visible) {
        assertThat(visible).isGreaterThan(held);
        DeliveryTables.Cursor cursor = await().atMost(DELIVERED_WITHIN).pollInterval(10, TimeUnit.MILLISECONDS)
                .until(tables::cursor, observed -> observed.pendingHead() >= visible && observed.pendingXid() != null);
        assertThat(cursor.claimed()).as("claimed stays below the open producer's id").isLessThan(held);
        assertThat(tables.leases()).isEmpty();
        assertThat(ledger.handled()).as("nothing delivered past an open producer").isEmpty();
    }

    /**
     * The one SQL0160 line naming the open producer once the wait passed its threshold, having waited
     * {@code waitedSeconds} (a pattern): repeats come a minute apart, so the claim polls every few milliseconds
     * meanwhile write no second one.
     */
    private String awaitFenceWarning(String waitedSeconds) {
        List<String> lines = await().atMost(DELIVERED_WITHIN).pollInterval(100, TimeUnit.MILLISECONDS)
                .until(() -> logger.withCode("SQL0160"), found -> !found.isEmpty());
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).containsPattern("have waited " + waitedSeconds + " s on an open transaction that"
                + " produced into the stream: .*xid [0-9]+, open [0-9]+ s");
        return lines.get(0);
    }

    private Connection openTransaction() throws SQLException {
        Connection connection = database.dataSource().getConnection();
        connection.setAutoCommit(false);
        return connection;
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static String inDatabase(String name) {
        return TestPostgres.jdbcUrl().replaceFirst("(jdbc:postgresql://[^/]+/)[^?]*", "$1" + name);
    }
}
