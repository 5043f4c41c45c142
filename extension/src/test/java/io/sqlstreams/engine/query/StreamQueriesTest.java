package io.sqlstreams.engine.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.SchemaVersion;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Transactions;
import io.sqlstreams.testing.PostgresTest;

/** A stream's table family and the partitions of its log, through the query layer; checked with plain SQL. */
@PostgresTest
class StreamQueriesTest extends EngineTestBase {
    private static final List<String> FAMILY_TABLES = List.of("message_log", "idempotency_key", "exception_queue",
            "delivery_log", "consumer_group_cursor", "claim_lease", "message_key_lease", "compaction_head",
            "binding_config", "binding_config_log");

    @SchemaVersion(1)
    public record Probe(String text) {
    }

    private StreamQueries streams;
    private io.sqlstreams.testing.Sql plain;

    @BeforeEach
    void install() {
        client.stream("queries.installed", Probe.class).register(StreamConfig.defaults());
        streams = new StreamQueries(new Sql(database.schema()));
        plain = new io.sqlstreams.testing.Sql(database);
    }

    @Test
    void aRegisteredFamilyIsDroppedWhole() throws SQLException {
        long family = client.stream("queries.dropped", Probe.class)
                .register(StreamConfig.builder().partitionSize(10L).build()).id();
        try (Connection connection = database.dataSource().getConnection()) {
            for (String table : FAMILY_TABLES) {
                assertThat(exists(table + "_" + family)).as(table).isTrue();
            }
            assertThat(bounds(family, 0)).isEqualTo("FOR VALUES FROM ('0') TO ('10')");
            assertThat(streams.hasMessages(connection, family)).isFalse();

            Transactions.run(connection, tx -> {
                streams.dropFamily(tx, family);
                return null;
            });
            for (String table : FAMILY_TABLES) {
                assertThat(exists(table + "_" + family)).as(table).isFalse();
            }
            assertThat(exists("message_log_" + family + "_id_seq")).as("the sequence goes with its log").isFalse();
        }
    }

    @Test
    void aPartitionIsCreatedOnceWithTheBoundsOfItsNumber() throws SQLException {
        Stream stream = client.stream("queries.partitions", Probe.class)
                .register(StreamConfig.builder().partitionSize(10L).build());
        try (Connection connection = database.dataSource().getConnection()) {
            for (int round = 0; round < 2; round++) {
                Transactions.run(connection, tx -> {
                    streams.createPartition(tx, stream.id(), 3, 10);
                    return null;
                });
            }
            assertThat(bounds(stream.id(), 3)).isEqualTo("FOR VALUES FROM ('30') TO ('40')");
            assertThat(exists("message_log_" + stream.id() + "_2")).as("only the partition asked for").isFalse();
        }
    }

    @Test
    void theNextIdIsTheOneTheSequenceHandsOutNext() throws SQLException {
        Stream stream = client.stream("queries.sequence", Probe.class).register(StreamConfig.defaults());
        String sequence = "{s}.message_log_" + stream.id() + "_id_seq";
        try (Connection connection = database.dataSource().getConnection()) {
            assertThat(streams.nextMessageId(connection, stream.id())).as("a fresh sequence").isEqualTo(1);
            assertThat(plain.count("SELECT nextval('" + sequence + "')")).isEqualTo(1);
            assertThat(streams.nextMessageId(connection, stream.id())).isEqualTo(2);
            plain.count("SELECT setval('" + sequence + "', 41)");
            assertThat(streams.nextMessageId(connection, stream.id())).isEqualTo(42);
        }
    }

    private boolean exists(String relation) throws SQLException {
        return plain.bool("SELECT to_regclass(?) IS NOT NULL", plain.schema() + "." + relation);
    }

    private String bounds(long streamId, long partition) throws SQLException {
        return plain.text("SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE oid = ?::regclass",
                plain.schema() + ".message_log_" + streamId + "_" + partition);
    }
}
