package io.sqlstreams.engine.produce;

import static io.sqlstreams.engine.produce.LogRows.claimed;
import static io.sqlstreams.engine.produce.LogRows.claims;
import static io.sqlstreams.engine.produce.LogRows.failsWith;
import static io.sqlstreams.engine.produce.LogRows.messages;
import static io.sqlstreams.engine.produce.LogRows.partition;
import static io.sqlstreams.engine.produce.LogRows.partitionExists;
import static io.sqlstreams.engine.produce.LogRows.payloadIs;
import static io.sqlstreams.engine.produce.LogRows.rejectPayloadsMarked;
import static io.sqlstreams.engine.produce.LogRows.uuidV5;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;

@PostgresTest
class CallerTransactionTest extends ProduceTestBase {

    @SchemaVersion(1)
    public record Shipment(String marker) {
        String json() {
            return "{\"marker\": \"" + marker + "\"}";
        }
    }

    private String orders;

    @BeforeEach
    void createOrdersTable() throws SQLException {
        this.orders = database.schema() + ".caller_orders";
        database.execute("CREATE TABLE IF NOT EXISTS " + orders + " (id BIGSERIAL PRIMARY KEY, note TEXT NOT NULL)");
    }

    private Producer<Shipment> producer(EngineClient owner, String streamName) {
        return producer(owner, streamName, Shipment.class, ProducerConfig.defaults());
    }

    private Stream register(String streamName, long partitionSize) {
        return client.stream(streamName, Shipment.class)
                .register(StreamConfig.builder().partitionSize(partitionSize).build());
    }

    private void insertOrder(Connection connection, String note) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + orders + " (note) VALUES (?)")) {
            insert.setString(1, note);
            insert.executeUpdate();
        }
    }

    private long orders(String note) throws SQLException {
        return sql.count("SELECT count(*) FROM " + orders + " WHERE note = ?", note);
    }

    /** Neither the caller's order {@code note} nor any message or idempotency claim of the stream was committed. */
    private void assertNothingCommitted(Stream stream, String note) throws SQLException {
        assertThat(orders(note)).as("orders noted %s", note).isZero();
        assertThat(messages(database, stream.id())).as("messages").isZero();
        assertThat(claims(database, stream.id())).as("claims").isZero();
    }

    private long withMarker(long streamId, String marker) throws SQLException {
        return sql.count("SELECT count(*) FROM {s}.message_log_" + streamId + " WHERE payload->>'marker' = ?",
                marker);
    }

    // ------------------------------------------------------------------------------------ produce(connection)

    @Test
    void aRolledBackTransactionLeavesNoMessageAndNoClaim() throws SQLException {
        Stream stream = register("caller.rollback", 1_000_000);
        Producer<Shipment> producer = producer(client, "caller.rollback");
        UUID key = UUID.randomUUID();

        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            insertOrder(connection, "rolled-back");
            ProduceResult result = producer.produce(connection, new Shipment("rolled-back"),
                    ProduceOptions.builder().idempotencyKey(key.toString()).messageKey("k").build());
            assertThat(result.duplicate()).isFalse();
            assertThat(result.id()).isPositive();
            assertThat(messages(database, stream.id())).as("invisible before the caller commits").isZero();
            connection.rollback();
            connection.setAutoCommit(true);
        }

        assertNothingCommitted(stream, "rolled-back");
        assertThat(producer.produce(new Shipment("retried"), ProduceOptions.builder().idempotencyKey(key.toString())
                .build()).duplicate()).as("the rolled-back claim is free again").isFalse();
    }

    @Test
    void aCommittedTransactionKeepsTheCallersRowAndTheMessage() throws SQLException {
        Stream stream = register("caller.commit", 1_000_000);
        Producer<Shipment> producer = producer(client, "caller.commit");
        List<ProduceResult> results = new ArrayList<>();

        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            insertOrder(connection, "committed");
            results.add(producer.produce(connection, new Shipment("committed-1"),
                    ProduceOptions.builder().idempotencyKey("caller-commit-1").build()));
            results.add(producer.produce(connection, new Shipment("committed-2"), ProduceOptions.none()));
            results.add(producer.produce(connection, new Shipment("committed-dup"),
                    ProduceOptions.builder().idempotencyKey("caller-commit-1").build()));
            connection.commit();
            connection.setAutoCommit(true);
        }

        assertThat(results.get(0).duplicate()).isFalse();
        assertThat(results.get(1).duplicate()).isFalse();
        assertThat(results.get(2)).as("a claim taken earlier in the same transaction").isEqualTo(new ProduceResult(0, true));
        assertThat(payloadIs(database, stream.id(), results.get(0).id(), new Shipment("committed-1").json())).isTrue();
        assertThat(payloadIs(database, stream.id(), results.get(1).id(), new Shipment("committed-2").json())).isTrue();
        assertThat(messages(database, stream.id())).isEqualTo(2);
        assertThat(claimed(database, stream.id(), uuidV5("caller-commit-1"))).isTrue();
        assertThat(claims(database, stream.id())).isEqualTo(2);
        assertThat(orders("committed")).isEqualTo(1);
    }

    @Test
    void anAutoCommitConnectionIsRefused() throws SQLException {
        Stream stream = register("caller.autocommit", 1_000_000);
        Producer<Shipment> producer = producer(client, "caller.autocommit");

        try (Connection connection = database.dataSource().getConnection()) {
            assertThat(connection.getAutoCommit()).isTrue();
            failsWith(Code.SQL0132, () -> producer.produce(connection, new Shipment("auto"), ProduceOptions.none()));
            failsWith(Code.SQL0132, () -> producer.produce(connection, new Shipment("auto"),
                    ProduceOptions.builder().idempotencyKey("auto-key").build()));
        }
        assertThat(messages(database, stream.id())).isZero();
        assertThat(claims(database, stream.id())).isZero();
    }

    @Test
    void aFailedProduceLeavesTheCallersTransactionUsable() throws SQLException {
        Stream stream = register("caller.survives", 1_000_000);
        Producer<Shipment> producer = producer(client, "caller.survives");
        rejectPayloadsMarked(database, stream.id(), "db-rejects-me");

        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            insertOrder(connection, "survives");
            // rejected by the database inside the produce's savepoint
            failsWith(Code.SQL0111, () -> producer.produce(connection, new Shipment("db-rejects-me"), ProduceOptions.none()));
            long id = producer.produce(connection, new Shipment("after-failure"), ProduceOptions.none()).id();
            connection.commit();
            connection.setAutoCommit(true);
            assertThat(payloadIs(database, stream.id(), id, new Shipment("after-failure").json())).isTrue();
        }
        assertThat(orders("survives")).isEqualTo(1);
        assertThat(messages(database, stream.id())).isEqualTo(1);
    }

    // ---------------------------------------------------------------------------------- produceInTransaction

    @Test
    void produceInTransactionCommitsTheWorkAndTheMessageTogether() throws SQLException {
        Stream stream = register("caller.work.commit", 1_000_000);
        Producer<Shipment> producer = producer(client, "caller.work.commit");

        ProduceResult result = producer.produceInTransaction(connection -> {
            assertThat(connection.getAutoCommit()).isFalse();
            insertOrder(connection, "work-commit");
            return new Shipment("work-commit");
        }, ProduceOptions.builder().messageKey("order-1").idempotencyKey("work-commit").build());

        assertThat(result.duplicate()).isFalse();
        assertThat(payloadIs(database, stream.id(), result.id(), new Shipment("work-commit").json())).isTrue();
        assertThat(orders("work-commit")).isEqualTo(1);
        assertThat(claimed(database, stream.id(), uuidV5("work-commit"))).isTrue();

        ProduceResult again = producer.produceInTransaction(connection -> {
            insertOrder(connection, "work-commit-again");
            return new Shipment("work-commit-again");
        }, ProduceOptions.builder().idempotencyKey("work-commit").build());
        assertThat(again).isEqualTo(new ProduceResult(0, true));
        assertThat(orders("work-commit-again")).as("a duplicate still commits the work").isEqualTo(1);
        assertThat(messages(database, stream.id())).isEqualTo(1);
    }

    @Test
    void aRuntimeExceptionFromTheWorkLeavesNeither() throws SQLException {
        Stream stream = register("caller.work.runtime", 1_000_000);
        Producer<Shipment> producer = producer(client, "caller.work.runtime");
        IllegalStateException boom = new IllegalStateException("business rule broken");

        Throwable thrown = catchThrowable(() -> producer.produceInTransaction(connection -> {
            insertOrder(connection, "work-runtime");
            throw boom;
        }, ProduceOptions.builder().idempotencyKey("work-runtime").build()));

        assertThat(thrown).isSameAs(boom);
        assertNothingCommitted(stream, "work-runtime");
    }

    @Test
    void aSqlExceptionFromTheWorkLeavesNeither() throws SQLException {
        Stream stream = register("caller.work.sql", 1_000_000);
        Producer<Shipment> producer = producer(client, "caller.work.sql");

        SqlStreamsException failure = failsWith(Code.SQL0111, () -> producer.produceInTransaction(connection -> {
            insertOrder(connection, "work-sql");
            try (Statement statement = connection.createStatement()) {
                statement.execute("INSERT INTO " + database.schema() + ".no_such_table VALUES (1)");
            }
            return new Shipment("work-sql");
        }, ProduceOptions.none()));

        assertThat(failure.getCause()).isInstanceOf(SQLException.class);
        assertNothingCommitted(stream, "work-sql");
    }

    @Test
    void aWorkThatSwallowsItsOwnSqlErrorCannotProduceIntoTheAbortedTransaction() throws SQLException {
        Stream stream = register("caller.work.aborted", 1_000_000);
        Producer<Shipment> producer = producer(client, "caller.work.aborted");

        failsWith(Code.SQL0111, () -> producer.produceInTransaction(connection -> {
            insertOrder(connection, "work-aborted");
            try (Statement statement = connection.createStatement()) {
                statement.execute("SELECT 1 / 0");
            } catch (SQLException ignored) {
                // the transaction is aborted now; the produce must not pretend otherwise
            }
            return new Shipment("work-aborted");
        }, ProduceOptions.none()));

        assertNothingCommitted(stream, "work-aborted");
    }

    // ------------------------------------------------------------------------------ partitions under savepoint

    /**
     * Partition size 10: a batch of 9 triggers create-ahead of partition 1, which the test then drops (empty), so
     * the first produce of the caller's transaction finds no partition and heals under its savepoint.
     */
    @Test
    void aMissingPartitionHealsWhenTheTransactionsFirstProduceNeedsIt() throws SQLException {
        Stream stream = register("caller.heal.first", 10);
        Producer<Shipment> producer = producer(client, "caller.heal.first");
        fillAndDropCreatedAhead(stream, producer, 9);

        List<ProduceResult> results = new ArrayList<>();
        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            insertOrder(connection, "heal-first");
            for (int i = 1; i <= 3; i++) {
                results.add(producer.produce(connection, new Shipment("heal-first-" + i), ProduceOptions.none()));
            }
            connection.commit();
            connection.setAutoCommit(true);
        }

        assertThat(orders("heal-first")).as("the caller's earlier work survived the heal").isEqualTo(1);
        for (int i = 1; i <= 3; i++) {
            assertThat(payloadIs(database, stream.id(), results.get(i - 1).id(), new Shipment("heal-first-" + i).json()))
                    .isTrue();
        }
        assertThat(results).extracting(ProduceResult::id).allMatch(id -> id >= 10);
        assertThat(messages(database, stream.id())).isEqualTo(12);
        assertThat(partitionExists(database, stream.id(), 1)).isTrue();
        assertThat(logger.withCode("SQL0057")).isNotEmpty();
    }

    /**
     * The same, but the transaction has already produced into partition 0 when the next produce crosses into the
     * missing partition 1: the transaction then holds a lock on the log, and healing must still work without
     * aborting the caller's earlier work (the caller's row and the first message). A client with a short retry
     * policy keeps a hang short: with the default policy the same wait lasts about 43 s.
     */
    @Test
    void aMissingPartitionHealsWhenALaterProduceOfTheTransactionNeedsIt() throws SQLException {
        EngineClient quick = clientWithRetries(database.dataSource(), 2, Duration.ofMillis(50), Duration.ofMillis(100));
        Stream stream = register("caller.heal.later", 10);
        Producer<Shipment> producer = producer(quick, "caller.heal.later");
        fillAndDropCreatedAhead(stream, producer, 8);

        List<ProduceResult> results = new ArrayList<>();
        Throwable failure;
        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            try {
                insertOrder(connection, "heal-later");
                failure = catchThrowable(() -> {
                    for (int i = 1; i <= 3; i++) {
                        results.add(producer.produce(connection, new Shipment("heal-later-" + i), ProduceOptions.none()));
                    }
                    connection.commit();
                });
            } finally {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                    connection.setAutoCommit(true);
                }
            }
        }

        assertThat(failure).as("produce of id 9 then 10 (partition 1 missing) in one caller transaction").isNull();
        assertThat(orders("heal-later")).isEqualTo(1);
        assertThat(withMarker(stream.id(), "heal-later-1") + withMarker(stream.id(), "heal-later-2")
                + withMarker(stream.id(), "heal-later-3")).isEqualTo(3);
        assertThat(partitionExists(database, stream.id(), 1)).isTrue();
        assertThat(logger.withCode("SQL0057")).isNotEmpty();
    }

    /** produceInTransaction: the work's write and a message that needs healing commit together. */
    @Test
    void produceInTransactionHealsAMissingPartition() throws SQLException {
        Stream stream = register("caller.heal.work", 10);
        Producer<Shipment> producer = producer(client, "caller.heal.work");
        fillAndDropCreatedAhead(stream, producer, 9);

        ProduceResult result = producer.produceInTransaction(connection -> {
            insertOrder(connection, "heal-work");
            return new Shipment("heal-work");
        }, ProduceOptions.none());

        assertThat(orders("heal-work")).isEqualTo(1);
        assertThat(payloadIs(database, stream.id(), result.id(), new Shipment("heal-work").json())).isTrue();
        assertThat(partitionExists(database, stream.id(), 1)).isTrue();
        assertThat(logger.withCode("SQL0057")).isNotEmpty();
    }

    /**
     * In a server-managed transaction a missing partition cannot be healed in place (no savepoint): it is created
     * apart, the produce fails as transient with the caller's transaction still to roll back, and the transaction
     * run again succeeds.
     */
    @Test
    void aManagedTransactionThatHitsAMissingPartitionFailsTransientlyAndSucceedsWhenRunAgain() throws SQLException {
        Stream stream = register("caller.heal.managed", 10);
        EngineProducer<Shipment> producer = (EngineProducer<Shipment>) producer(client, "caller.heal.managed");
        fillAndDropCreatedAhead(stream, producer, 9);
        List<ProduceItem<Shipment>> item = List.of(ProduceItem.of(new Shipment("managed")));

        try (Connection enlisted = database.dataSource().getConnection()) {
            enlisted.setAutoCommit(false);
            Throwable failure = catchThrowable(() -> producer.produceInManagedTransaction(enlisted, item));
            assertThat(failure).isInstanceOf(SqlStreamsException.class).hasMessageContaining("must run again");
            assertThat(((SqlStreamsException) failure).code()).isEqualTo(Code.SQL0110);
            enlisted.rollback();

            assertThat(partitionExists(database, stream.id(), 1)).as("created apart").isTrue();
            long id = producer.produceInManagedTransaction(enlisted, item).get(0).id();
            enlisted.commit();
            assertThat(payloadIs(database, stream.id(), id, new Shipment("managed").json())).isTrue();
        }
    }

    /**
     * Produces {@code count} messages, enough to trigger the background create-ahead of partition 1 (at 80 %), waits
     * for it, then drops it while it is empty.
     */
    private void fillAndDropCreatedAhead(Stream stream, Producer<Shipment> producer, int count) throws SQLException {
        producer.produceBatch(IntStream.rangeClosed(1, count).mapToObj(i -> ProduceItem.of(new Shipment("pre-" + i)))
                .toList());
        await().atMost(Duration.ofSeconds(10)).until(() -> partitionExists(database, stream.id(), 1));
        database.execute("DROP TABLE " + partition(database, stream.id(), 1));
        assertThat(partitionExists(database, stream.id(), 1)).isFalse();
    }
}
