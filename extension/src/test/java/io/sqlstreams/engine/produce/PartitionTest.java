package io.sqlstreams.engine.produce;

import static io.sqlstreams.engine.produce.LogRows.claims;
import static io.sqlstreams.engine.produce.LogRows.failsWith;
import static io.sqlstreams.engine.produce.LogRows.messages;
import static io.sqlstreams.engine.produce.LogRows.partition;
import static io.sqlstreams.engine.produce.LogRows.partitionExists;
import static io.sqlstreams.engine.produce.LogRows.payloadIs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RoleDataSource;

@PostgresTest
class PartitionTest extends ProduceTestBase {

    @SchemaVersion(1)
    public record Reading(String marker) {
        String json() {
            return "{\"marker\": \"" + marker + "\"}";
        }
    }

    private Stream register(String name) {
        return client.stream(name, Reading.class).register(StreamConfig.builder().partitionSize(10L).build());
    }

    private Producer<Reading> producer(EngineClient owner, String name) {
        return producer(owner, name, Reading.class, ProducerConfig.defaults());
    }

    private static List<ProduceItem<Reading>> items(String prefix, int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> ProduceItem.of(new Reading(prefix + i))).toList();
    }

    private EngineClient clientWith(DataSource dataSource, int maxRetries) {
        return clientWithRetries(dataSource, maxRetries, Duration.ofMillis(20), Duration.ofMillis(50));
    }

    @Test
    void theNextPartitionIsCreatedAheadAtEightyPercent() throws SQLException {
        Stream stream = register("partition.ahead");
        Producer<Reading> producer = producer(client, "partition.ahead");
        for (int i = 1; i <= 7; i++) {
            producer.produce(new Reading("r" + i));
        }
        assertThat(partitionExists(database, stream.id(), 1)).as("no trigger below 80 %").isFalse();

        assertThat(producer.produce(new Reading("r8")).id()).isEqualTo(8);

        await().atMost(Duration.ofSeconds(10)).until(() -> partitionExists(database, stream.id(), 1));
        for (int i = 9; i <= 13; i++) {
            producer.produce(new Reading("r" + i));
        }
        assertThat(logger.withCode("SQL0057")).as("create-ahead spared the insert path").isEmpty();
        assertThat(logger.withCode("SQL0033")).isEmpty();
        assertThat(messages(database, stream.id())).isEqualTo(13);
        assertThat(partitionExists(database, stream.id(), 2)).as("id 13 is below 80 % of partition 1").isFalse();
    }

    @Test
    void aBatchBeyondThePartitionsHealsOnTheInsertPath() throws SQLException {
        Stream stream = register("partition.heal.batch");
        Producer<Reading> producer = producer(client, "partition.heal.batch");
        List<ProduceItem<Reading>> items = items("h", 35);

        List<ProduceResult> results = producer.produceBatch(items);

        assertThat(results).hasSize(35).noneMatch(ProduceResult::duplicate);
        for (int i = 0; i < items.size(); i++) {
            assertThat(payloadIs(database, stream.id(), results.get(i).id(), items.get(i).message().json())).isTrue();
        }
        assertThat(messages(database, stream.id())).isEqualTo(35);
        assertThat(claims(database, stream.id())).as("the batch's one claim").isEqualTo(1);
        for (int n = 0; n <= 3; n++) {
            assertThat(partitionExists(database, stream.id(), n)).as("partition %d", n).isTrue();
        }
        assertThat(logger.withCode("SQL0057")).hasSize(1).allMatch(line -> line.contains("partition.heal.batch"));
    }

    @Test
    void aDroppedEmptyPartitionHealsAgain() throws SQLException {
        Stream stream = register("partition.heal.dropped");
        Producer<Reading> producer = producer(client, "partition.heal.dropped");
        producer.produceBatch(items("pre", 8));
        await().atMost(Duration.ofSeconds(10)).until(() -> partitionExists(database, stream.id(), 1));
        database.execute("DROP TABLE " + partition(database, stream.id(), 1));
        assertThat(logger.withCode("SQL0057")).isEmpty();

        ProduceResult ninth = producer.produce(new Reading("ninth"));
        ProduceResult beyond = producer.produce(new Reading("beyond"));

        assertThat(ninth.id()).isEqualTo(9);
        assertThat(beyond.id()).isGreaterThanOrEqualTo(10);
        assertThat(payloadIs(database, stream.id(), beyond.id(), new Reading("beyond").json())).isTrue();
        assertThat(partitionExists(database, stream.id(), 1)).isTrue();
        assertThat(logger.withCode("SQL0057")).hasSize(1);
        assertThat(messages(database, stream.id())).isEqualTo(10);
    }

    /**
     * SQL0056: every heal succeeds, but the ids keep outrunning it. A sequence that steps by 1,000 stands in for
     * other producers drawing ids between the heal and the retry; with maxRetries 1 the producer heals twice.
     */
    @Test
    void healingThatCannotKeepUpFailsWithSql0056() throws SQLException {
        Stream stream = register("partition.outrun");
        EngineClient oneRetry = clientWith(database.dataSource(), 1);
        Producer<Reading> producer = producer(oneRetry, "partition.outrun");
        assertThat(producer.produce(new Reading("first")).id()).isEqualTo(1);
        String sequence = database.schema() + ".message_log_" + stream.id() + "_id_seq";
        database.execute("ALTER SEQUENCE " + sequence + " INCREMENT BY 1000");

        SqlStreamsException failure = failsWith(Code.SQL0056,
                () -> producer.produceBatch(items("outrun", 3)));

        assertThat(failure.isTransient()).isFalse();
        assertThat(messages(database, stream.id())).isEqualTo(1);
        assertThat(claims(database, stream.id())).isEqualTo(1);
        assertThat(logger.withCode("SQL0057")).isNotEmpty();

        database.execute("ALTER SEQUENCE " + sequence + " INCREMENT BY 1");
        ProduceResult recovered = producer.produce(new Reading("recovered"));
        assertThat(payloadIs(database, stream.id(), recovered.id(), new Reading("recovered").json())).isTrue();
    }

    /**
     * A role without CREATE on the schema: create-ahead fails (SQL0033) and so does healing, which the digest
     * (§1.10) and the code catalogue call SQL0018 PartitionCreateFailed (transient).
     */
    @Test
    void aRoleThatMayNotCreatePartitions() throws SQLException {
        Stream stream = register("partition.denied");
        String role = database.schema() + "_noddl";
        database.execute("CREATE ROLE " + role + " NOLOGIN");
        try {
            database.execute("GRANT USAGE ON SCHEMA " + database.schema() + " TO " + role);
            database.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + database.schema()
                    + " TO " + role);
            database.execute("GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA " + database.schema()
                    + " TO " + role);
            EngineClient restricted = clientWith(new RoleDataSource(database.dataSource(), role), 2);
            Producer<Reading> producer = producer(restricted, "partition.denied");
            try {
                for (int i = 1; i <= 8; i++) {
                    producer.produce(new Reading("d" + i));
                }
                assertThat(sql.value("SELECT current_user = session_user")).as("the pool is unaffected").isEqualTo(true);
                await().atMost(Duration.ofSeconds(10)).until(() -> !logger.withCode("SQL0033").isEmpty());
                assertThat(partitionExists(database, stream.id(), 1)).isFalse();

                SqlStreamsException failure = failsWith(Code.SQL0018, () -> producer.produceBatch(items("x", 5)));

                assertThat(failure.isTransient()).isTrue();
            } finally {
                producer.close();
                assertThat(messages(database, stream.id())).isEqualTo(8);
            }
        } finally {
            database.execute("DROP OWNED BY " + role);
            database.execute("DROP ROLE " + role);
        }
    }
}
