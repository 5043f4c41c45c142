package io.sqlstreams.engine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.CompactionOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Start;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.StreamVersionHealth;
import io.sqlstreams.StreamVersionHealth.GroupVersionHealth;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;

/** {@code StreamHandle.health} (digest §2.8): what each payload version still holds and who still reads it. */
@PostgresTest
class StreamHealthTest extends StreamTestBase {
    @SchemaVersion(1)
    public record OrderV1(String order) {
    }

    @SchemaVersion(2)
    public record OrderV2(String order, long cents) {
    }

    private static <T> long produce(StreamHandle<T> stream, T payload, String compactedKey) {
        ProduceOptions options = compactedKey == null ? null
                : ProduceOptions.builder().messageKey(compactedKey).compaction(CompactionOptions.enabled()).build();
        try (Producer<T> producer = stream.producer().register()) {
            return producer.produce(payload, options).id();
        }
    }

    @Test
    void eachVersionShowsItsMessagesHeadsAndTheGroupsThatStillHoldIt() throws SQLException {
        StreamHandle<OrderV1> v1 = client.stream("health.versions", OrderV1.class);
        long streamId = v1.register().id();
        StreamHandle<OrderV2> v2 = client.stream("health.versions", OrderV2.class);
        v1.consumer("old").register();
        long first = produce(v1, new OrderV1("a"), "order-a");
        long second = produce(v1, new OrderV1("b"), "order-b");
        long third = produce(v1, new OrderV1("c"), null);
        long fourth = produce(v2, new OrderV2("a", 100), "order-a");
        long fifth = produce(v2, new OrderV2("d", 200), null);
        v2.consumer("new").register(ConsumerConfig.builder().start(Start.HEAD).build());
        Sql sql = new Sql(database);
        long old = v1.consumer("old").get().orElseThrow().id();
        long fresh = v2.consumer("new").get().orElseThrow().id();
        sql.update("UPDATE {s}.consumer_group_cursor_" + streamId + " SET claimed = ?, committed = ?"
                + " WHERE consumer_group_id = ?", third, third, old);
        insertException(sql, streamId, old, second, "dead");
        insertException(sql, streamId, fresh, fifth, "ready");
        insertException(sql, streamId, fresh, fourth, "discarded");

        assertThat(v1.health()).containsExactly(
                new StreamVersionHealth(1, 3, first, third, 1, List.of(new GroupVersionHealth("old", 0, 0, 1))),
                new StreamVersionHealth(2, 2, fourth, fifth, 1, List.of(new GroupVersionHealth("new", 0, 1, 0),
                        new GroupVersionHealth("old", 2, 0, 0))));
        assertThat(v1.health()).extracting(StreamVersionHealth::retirable).containsExactly(false, false);
    }

    @Test
    void aVersionEveryGroupHasPassedWithoutCompactionHeadsMayBeRetired() throws SQLException {
        StreamHandle<OrderV1> v1 = client.stream("health.retired", OrderV1.class);
        long streamId = v1.register().id();
        v1.consumer("reader").register();
        long last = produce(v1, new OrderV1("a"), null);
        long group = v1.consumer("reader").get().orElseThrow().id();
        new Sql(database).update("UPDATE {s}.consumer_group_cursor_" + streamId + " SET claimed = ?, committed = ?"
                + " WHERE consumer_group_id = ?", last, last, group);

        assertThat(v1.health()).singleElement().satisfies(health -> {
            assertThat(health).isEqualTo(new StreamVersionHealth(1, 1, last, last, 0, List.of()));
            assertThat(health.retirable()).isTrue();
        });
    }

    @Test
    void anEmptyStreamHoldsNoVersionAndAnUnknownOneIsNotFound() {
        StreamHandle<OrderV1> empty = client.stream("health.empty", OrderV1.class);
        empty.register();
        empty.consumer("idle").register();

        assertThat(empty.health()).isEmpty();
        SqlStreamsException absent = catchThrowableOfType(SqlStreamsException.class,
                () -> client.stream("health.missing", OrderV1.class).health());
        assertThat(absent.code()).isEqualTo(Code.SQL0005);
    }

    private static void insertException(Sql sql, long streamId, long groupId, long messageId, String status)
            throws SQLException {
        sql.update("INSERT INTO {s}.exception_queue_" + streamId + " (consumer_group_id, message_id, status,"
                + " concurrency) VALUES (?, ?, ?, 'parallel')", groupId, messageId, status);
    }
}
