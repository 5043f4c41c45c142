package io.sqlstreams.engine.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.sqlstreams.Code;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Transactions;
import io.sqlstreams.testing.PostgresTest;

/**
 * The produce statement through the query layer: one result per row in row order, and the two failures that mean
 * something to the producer (a missing partition, a dropped stream) told apart from every other one.
 */
@PostgresTest
class ProduceQueriesTest extends EngineTestBase {
    @SchemaVersion(1)
    public record Probe(String text) {
    }

    private record Row(UUID idempotencyKey, int schemaVersion, String routingKey, String messageKey,
                       Long compactionRank, String payloadJson, String optionsJson, String headersJson)
            implements ProduceQueries.MessageRow {
        static Row keyless(String text) {
            return new Row(null, 1, null, null, null, "{\"text\": \"" + text + "\"}", null, null);
        }

        static Row compacted(String key, long rank) {
            return new Row(UUID.randomUUID(), 1, null, key, rank, "{\"text\": \"" + key + rank + "\"}", null,
                    null);
        }
    }

    private Stream stream;
    private ProduceQueries queries;
    private io.sqlstreams.testing.Sql plain;

    /** A stream of its own for every test: one of them drops its family. */
    @BeforeEach
    void register(TestInfo test) {
        stream = client.stream("queries." + test.getTestMethod().orElseThrow().getName().toLowerCase(), Probe.class)
                .register(StreamConfig.builder().partitionSize(10L).build());
        queries = new ProduceQueries(new Sql(database.schema()), stream.id());
        plain = new io.sqlstreams.testing.Sql(database);
    }

    @Test
    void eachRowGetsItsIdOrIsADuplicateInRowOrder() throws SQLException {
        Row first = Row.compacted("k", 1);
        Row claimedBefore = Row.compacted("k", 9);
        Row last = Row.compacted("k", 2);
        plain.update("INSERT INTO {s}.idempotency_key_" + stream.id() + " (idempotency_key) VALUES (?)",
                claimedBefore.idempotencyKey());

        List<ProduceResult> results;
        try (Connection connection = database.dataSource().getConnection()) {
            results = queries.produce(connection, stream.name(), List.of(first, claimedBefore, last),
                    UUID.randomUUID(), null);
        }

        assertThat(results).extracting(ProduceResult::duplicate).containsExactly(false, true, false);
        assertThat(results.get(0).id()).isPositive().isLessThan(results.get(2).id());
        assertThat(plain.rows("SELECT id, compaction_rank FROM {s}.message_log_" + stream.id() + " ORDER BY id"))
                .containsExactly(List.of(results.get(0).id(), 1L), List.of(results.get(2).id(), 2L));
        assertThat(plain.count("SELECT message_id FROM {s}.compaction_head_" + stream.id()
                + " WHERE compaction_key = 'k'")).as("the head is at the greatest rank")
                .isEqualTo(results.get(2).id());
    }

    /**
     * Settling a batch that failed for good: its batch key, taken by a committed attempt, answers "written"; a free
     * one is taken by the claim, which answers "unwritten", and then no late attempt of the batch writes anything.
     */
    @Test
    void claimingABatchKeyTellsWhetherTheBatchCommittedAndFencesOffALateAttempt() throws SQLException {
        UUID committed = UUID.randomUUID();
        UUID failed = UUID.randomUUID();
        try (Connection connection = database.dataSource().getConnection()) {
            List<ProduceResult> written = queries.produce(connection, stream.name(),
                    List.of(Row.keyless("a"), Row.keyless("b")), committed, null);
            assertThat(written).extracting(ProduceResult::duplicate).containsExactly(false, false);

            assertThat(queries.claimBatchKey(connection, committed)).as("the committed batch's key").isFalse();
            assertThat(queries.claimBatchKey(connection, failed)).as("a key no attempt committed").isTrue();
            assertThat(queries.produce(connection, stream.name(), List.of(Row.keyless("late")), failed, null))
                    .as("an attempt arriving after the claim").containsExactly(new ProduceResult(0, true));
        }
        assertThat(plain.rows("SELECT payload ->> 'text' FROM {s}.message_log_" + stream.id() + " ORDER BY id"))
                .containsExactly(List.of("a"), List.of("b"));
    }

    @Test
    void idsPastTheLastPartitionAreAMissingPartitionAndWriteNothing() throws SQLException {
        plain.count("SELECT setval('{s}.message_log_" + stream.id() + "_id_seq', 40)");
        try (Connection connection = database.dataSource().getConnection()) {
            ProduceQueries.MissingPartitionException missing = catchThrowableOfType(
                    () -> queries.produce(connection, stream.name(), List.of(Row.compacted("k", 1)), UUID.randomUUID(),
                            null),
                    ProduceQueries.MissingPartitionException.class);

            assertThat(missing).hasMessageContaining("\"" + stream.name() + "\"")
                    .hasCauseInstanceOf(SQLException.class);
        }
        assertThat(plain.count("SELECT count(*) FROM {s}.idempotency_key_" + stream.id())).isZero();
        assertThat(plain.count("SELECT count(*) FROM {s}.message_log_" + stream.id())).isZero();
    }

    @Test
    void aDroppedFamilyIsAStreamThatNoLongerExists() throws SQLException {
        StreamQueries streams = new StreamQueries(new Sql(database.schema()));
        try (Connection connection = database.dataSource().getConnection()) {
            Transactions.run(connection, tx -> {
                streams.dropFamily(tx, stream.id());
                return null;
            });
            SqlStreamsException gone = catchThrowableOfType(
                    () -> queries.produce(connection, stream.name(), List.of(Row.compacted("k", 1)), UUID.randomUUID(),
                            null),
                    SqlStreamsException.class);

            assertThat(gone.code()).isEqualTo(Code.SQL0005);
            assertThat(gone).hasMessageContaining("\"" + stream.name() + "\"");
        }
    }
}
