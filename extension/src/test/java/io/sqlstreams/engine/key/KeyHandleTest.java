package io.sqlstreams.engine.key;

import static io.sqlstreams.engine.produce.LogRows.failsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.CompactionOptions;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.KeyHandle;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StoredMessage;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.produce.ProduceTestBase;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;

@PostgresTest
class KeyHandleTest extends ProduceTestBase {

    @SchemaVersion(1)
    public record Price(String sku, long cents) {
    }

    @SchemaVersion(2)
    public record PriceV2(String sku, long cents, String currency) {
    }

    private static ProduceOptions compacted(String key, long rank) {
        return ProduceOptions.builder().messageKey(key).compaction(CompactionOptions.withRank(rank)).build();
    }

    /** The stored head row: message_id, schema_version, compaction_rank (all null for a head-less row). */
    private List<Object> headRow(Stream stream, String key) throws SQLException {
        List<List<Object>> rows = sql.rows("SELECT message_id, schema_version, compaction_rank FROM {s}.compaction_head_"
                + stream.id() + " WHERE compaction_key = ?", key);
        assertThat(rows).hasSizeLessThanOrEqualTo(1);
        return rows.isEmpty() ? null : rows.get(0);
    }

    @Test
    void theHeadFollowsVersionThenRankThenId() throws SQLException {
        String name = "keys.head.rule";
        Stream stream = client.stream(name, Price.class).register();
        Producer<Price> v1 = producer(name, Price.class);
        Producer<PriceV2> v2 = producer(name, PriceV2.class);
        KeyHandle<Price> key = client.stream(name, Price.class).key("sku-1");

        long first = v1.produce(new Price("sku-1", 100), compacted("sku-1", 0)).id();
        assertThat(key.compactionHead().id()).isEqualTo(first);
        long second = v1.produce(new Price("sku-1", 110), compacted("sku-1", 0)).id();
        assertThat(key.compactionHead().id()).as("rank 0: arrival order").isEqualTo(second);

        long pinned = v1.produce(new Price("sku-1", 120), compacted("sku-1", 5)).id();
        assertThat(key.compactionHead().id()).isEqualTo(pinned);
        v1.produce(new Price("sku-1", 130), compacted("sku-1", 0));
        v1.produce(new Price("sku-1", 140), compacted("sku-1", 4));
        v1.produce(new Price("sku-1", 150), ProduceOptions.builder().messageKey("sku-1").build());
        assertThat(key.compactionHead().id()).as("a higher rank pins the head").isEqualTo(pinned);

        long equalRank = v1.produce(new Price("sku-1", 160), compacted("sku-1", 5)).id();
        assertThat(key.compactionHead().id()).as("an equal rank falls back to id order").isEqualTo(equalRank);
        long higher = v1.produce(new Price("sku-1", 170), compacted("sku-1", 9)).id();
        StoredMessage<Price> head = key.compactionHead();
        assertThat(head.id()).isEqualTo(higher);
        assertThat(head.message()).isEqualTo(new Price("sku-1", 170));
        assertThat(head.compactionRank()).isEqualTo(9);
        assertThat(head.schemaVersion()).isEqualTo(1);
        assertThat(head.messageKey()).isEqualTo("sku-1");
        assertThat(head.routingKey()).isNull();
        assertThat(head.createdAt()).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(60));
        assertThat(headRow(stream, "sku-1")).isEqualTo(Arrays.asList(higher, 1, 9L));

        // a newer payload version wins whatever its rank ("bridge" rank -1 included)
        long bridged = v2.produce(new PriceV2("sku-1", 170, "EUR"), compacted("sku-1", -1)).id();
        v1.produce(new Price("sku-1", 999), compacted("sku-1", Long.MAX_VALUE));
        KeyHandle<PriceV2> keyV2 = client.stream(name, PriceV2.class).key("sku-1");
        StoredMessage<PriceV2> v2Head = keyV2.compactionHead();
        assertThat(v2Head.id()).isEqualTo(bridged);
        assertThat(v2Head.schemaVersion()).isEqualTo(2);
        assertThat(v2Head.compactionRank()).isEqualTo(-1);
        assertThat(v2Head.message()).isEqualTo(new PriceV2("sku-1", 170, "EUR"));
        assertThat(headRow(stream, "sku-1")).isEqualTo(Arrays.asList(bridged, 2, -1L));

        long v2Later = v2.produce(new PriceV2("sku-1", 180, "EUR"), compacted("sku-1", -1)).id();
        assertThat(keyV2.compactionHead().id()).isEqualTo(v2Later);
        v2.produce(new PriceV2("sku-1", 175, "EUR"), compacted("sku-1", -2));
        assertThat(keyV2.compactionHead().id()).isEqualTo(v2Later);
    }

    @Test
    void withinOneBatchTheGreatestItemOfAKeyWins() throws SQLException {
        String name = "keys.head.batch";
        Stream stream = client.stream(name, Price.class).register();
        Producer<Price> producer = producer(name, Price.class);

        List<Long> ids = producer.produceBatch(List.of(
                ProduceItem.of(new Price("a", 1), compacted("a", 7)),
                ProduceItem.of(new Price("b", 1), compacted("b", 0)),
                ProduceItem.of(new Price("a", 2), compacted("a", 3)),
                ProduceItem.of(new Price("b", 2), compacted("b", 0)))).stream().map(r -> r.id()).toList();

        assertThat(headRow(stream, "a")).as("rank 7 beats the later rank 3").isEqualTo(Arrays.asList(ids.get(0), 1, 7L));
        assertThat(headRow(stream, "b")).as("equal ranks: the later id").isEqualTo(Arrays.asList(ids.get(3), 1, 0L));
        assertThat(ids.get(3)).isGreaterThan(ids.get(1));
    }

    @Test
    void aKeyWithoutCompactedMessagesHasNoHead() {
        String name = "keys.head.none";
        StreamHandle<Price> stream = registeredStream(name);
        Producer<Price> producer = producer(name, Price.class);
        producer.produce(new Price("plain", 1), ProduceOptions.builder().messageKey("plain").build());
        producer.produce(new Price("plain", 2), ProduceOptions.builder().messageKey("plain")
                .compaction(new CompactionOptions(false, 0)).build());

        failsWith(Code.SQL0066, () -> stream.key("plain").compactionHead());
        failsWith(Code.SQL0066, () -> stream.key("never-used").compactionHead());
        failsWith(Code.SQL0005, () -> client.stream("keys.not.registered", Price.class).key("plain").compactionHead());
        failsWith(Code.SQL0109, () -> stream.key("bad\nkey").compactionHead());
        assertThat(stream.key("plain").messages(10)).hasSize(2);
    }

    @Test
    void messagesAreNewestFirstWithinTheLimit() {
        String name = "keys.messages";
        StreamHandle<Price> stream = registeredStream(name);
        Producer<Price> producer = producer(name, Price.class);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ProduceOptions options = i % 2 == 0 ? compacted("m", i)
                    : ProduceOptions.builder().messageKey("m").routingKey("route-" + i).build();
            ids.add(producer.produce(new Price("m", i), options).id());
            producer.produce(new Price("other", i), ProduceOptions.builder().messageKey("other").build());
        }
        producer.produce(new Price("keyless", 0));

        List<StoredMessage<Price>> three = stream.key("m").messages(3);
        assertThat(three).extracting(StoredMessage::id).containsExactly(ids.get(4), ids.get(3), ids.get(2));
        assertThat(three).extracting(StoredMessage::message)
                .containsExactly(new Price("m", 4), new Price("m", 3), new Price("m", 2));
        assertThat(three.get(0).compactionRank()).isEqualTo(4);
        assertThat(three.get(1).compactionRank()).isNull();
        assertThat(three.get(1).routingKey()).isEqualTo("route-3");
        assertThat(three).allMatch(message -> message.messageKey().equals("m") && message.schemaVersion() == 1);

        assertThat(stream.key("m").messages(100)).extracting(StoredMessage::id)
                .containsExactly(ids.get(4), ids.get(3), ids.get(2), ids.get(1), ids.get(0));
        assertThat(stream.key("m").messages(1)).extracting(StoredMessage::id).containsExactly(ids.get(4));
        assertThat(stream.key("nobody").messages(5)).isEmpty();
        assertThat(failsWith(Code.SQL0108, () -> stream.key("m").messages(0)))
                .isInstanceOf(InvalidConfigurationException.class);
        failsWith(Code.SQL0108, () -> stream.key("m").messages(-1));
    }

    @Test
    void lockingANewKeyCreatesAHeadlessRow() throws SQLException {
        String name = "keys.lock.new";
        StreamHandle<Price> stream = client.stream(name, Price.class);
        Stream registered = stream.register();

        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            Optional<StoredMessage<Price>> head = stream.key("fresh").lockCompactionHead(connection);
            assertThat(head).isEmpty();
            assertThat(Sql.rows(connection, database.schema(), "SELECT message_id, schema_version, compaction_rank"
                    + " FROM {s}.compaction_head_" + registered.id() + " WHERE compaction_key = ?", "fresh"))
                    .containsExactly(Arrays.asList(null, null, null));
            connection.commit();
            connection.setAutoCommit(true);
        }

        assertThat(headRow(registered, "fresh")).isEqualTo(Arrays.asList(null, null, null));
        failsWith(Code.SQL0066, () -> stream.key("fresh").compactionHead());

        long id = producer(name, Price.class).produce(new Price("fresh", 1), compacted("fresh", -5)).id();
        assertThat(headRow(registered, "fresh")).as("a head-less row takes any first head")
                .isEqualTo(Arrays.asList(id, 1, -5L));
    }

    @Test
    void lockingAnExistingKeyReturnsItsHead() throws SQLException {
        String name = "keys.lock.existing";
        StreamHandle<Price> stream = registeredStream(name);
        long id = producer(name, Price.class).produce(new Price("existing", 7), compacted("existing", 2)).id();

        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            Optional<StoredMessage<Price>> head = stream.key("existing").lockCompactionHead(connection);
            connection.rollback();
            connection.setAutoCommit(true);
            assertThat(head).hasValueSatisfying(message -> {
                assertThat(message.id()).isEqualTo(id);
                assertThat(message.message()).isEqualTo(new Price("existing", 7));
                assertThat(message.compactionRank()).isEqualTo(2);
            });
        }
    }

    @Test
    void theLockHoldsASecondLockerUntilTheFirstCommits() throws Exception {
        String name = "keys.lock.blocking";
        StreamHandle<Price> stream = registeredStream(name);
        Producer<Price> producer = producer(name, Price.class);
        producer.produce(new Price("contended", 1), compacted("contended", 0));

        try (Connection first = database.dataSource().getConnection();
             Connection second = database.dataSource().getConnection()) {
            first.setAutoCommit(false);
            StoredMessage<Price> current = stream.key("contended").lockCompactionHead(first).orElseThrow();

            CompletableFuture<Optional<StoredMessage<Price>>> waiting = blockedLocker(stream.key("contended"), second);
            assertThat(waiting).as("blocked while the first transaction holds the row").isNotDone();

            // read-modify-write: the next version, produced in the locking transaction
            long next = producer.produce(first, new Price("contended", current.message().cents() + 1),
                    compacted("contended", 0)).id();
            assertThat(waiting).isNotDone();
            first.commit();
            first.setAutoCommit(true);

            Optional<StoredMessage<Price>> seen = waiting.get(10, TimeUnit.SECONDS);
            assertThat(seen).as("the second locker sees the first one's committed version")
                    .hasValueSatisfying(message -> {
                        assertThat(message.id()).isEqualTo(next);
                        assertThat(message.message().cents()).isEqualTo(2);
                    });
            second.rollback();
            second.setAutoCommit(true);
        }
    }

    @Test
    void lockingANewKeyAlsoBlocksASecondLocker() throws Exception {
        String name = "keys.lock.blocking.new";
        StreamHandle<Price> stream = registeredStream(name);

        try (Connection first = database.dataSource().getConnection();
             Connection second = database.dataSource().getConnection()) {
            first.setAutoCommit(false);
            assertThat(stream.key("brand-new").lockCompactionHead(first)).isEmpty();

            CompletableFuture<Optional<StoredMessage<Price>>> waiting = blockedLocker(stream.key("brand-new"), second);
            assertThat(waiting).isNotDone();
            first.commit();
            first.setAutoCommit(true);

            assertThat(waiting.get(10, TimeUnit.SECONDS)).isEmpty();
            second.commit();
            second.setAutoCommit(true);
        }
    }

    @Test
    void lockingNeedsAConnectionInsideATransaction() throws SQLException {
        StreamHandle<Price> stream = client.stream("keys.lock.autocommit", Price.class);
        Stream registered = stream.register();

        try (Connection connection = database.dataSource().getConnection()) {
            assertThat(connection.getAutoCommit()).isTrue();
            failsWith(Code.SQL0132, () -> stream.key("auto").lockCompactionHead(connection));
        }
        assertThat(headRow(registered, "auto")).as("nothing created").isNull();
    }

    /** A handle on stream {@code name}, registered. */
    private StreamHandle<Price> registeredStream(String name) {
        StreamHandle<Price> stream = client.stream(name, Price.class);
        stream.register();
        return stream;
    }

    /**
     * Starts locking {@code key} in a transaction on {@code connection}, in the background; returns once that lock
     * waits on a lock another transaction holds.
     */
    private CompletableFuture<Optional<StoredMessage<Price>>> blockedLocker(KeyHandle<Price> key,
                                                                            Connection connection) throws SQLException {
        int pid = backendPid(connection);
        connection.setAutoCommit(false);
        CompletableFuture<Optional<StoredMessage<Price>>> waiting = CompletableFuture.supplyAsync(
                () -> key.lockCompactionHead(connection));
        await().atMost(Duration.ofSeconds(10)).until(() -> waitsOnALock(pid));
        return waiting;
    }

    private static int backendPid(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT pg_backend_pid()");
             ResultSet row = query.executeQuery()) {
            row.next();
            return row.getInt(1);
        }
    }

    private boolean waitsOnALock(int pid) throws SQLException {
        return !sql.rows("SELECT 1 FROM pg_stat_activity WHERE pid = ? AND wait_event_type = 'Lock'", pid)
                .isEmpty();
    }
}
