package io.sqlstreams.engine.produce;

import static io.sqlstreams.engine.produce.LogRows.claimed;
import static io.sqlstreams.engine.produce.LogRows.claims;
import static io.sqlstreams.engine.produce.LogRows.failsWith;
import static io.sqlstreams.engine.produce.LogRows.messages;
import static io.sqlstreams.engine.produce.LogRows.payloadIs;
import static io.sqlstreams.engine.produce.LogRows.rejectPayloadsMarked;
import static io.sqlstreams.engine.produce.LogRows.uuidV5;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.CompactionOptions;
import io.sqlstreams.Concurrency;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidNameException;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;

@PostgresTest
class ProduceTest extends ProduceTestBase {

    @SchemaVersion(1)
    public record Order(String marker, long cents) {
        String json() {
            return "{\"marker\": \"" + marker + "\", \"cents\": " + cents + "}";
        }
    }

    @SchemaVersion(3)
    public record OrderV3(String marker, String currency) {
    }

    public record Unversioned(String marker) {
    }

    /** JSON-B reads every public getter; this one throws, with the payload's content in its message. */
    @SchemaVersion(1)
    public static final class Unencodable {
        private final String card;

        public Unencodable(String card) {
            this.card = card;
        }

        public String getCard() {
            return card;
        }

        public String getExpiry() {
            throw new IllegalStateException("no expiry for card " + card);
        }

        @Override
        public String toString() {
            return "Unencodable[card=" + card + "]";
        }
    }

    private Stream register(String streamName) {
        return client.stream(streamName, Order.class).register();
    }

    private <T> Producer<T> producer(String streamName, Class<T> type, ProducerConfig config) {
        return producer(client, streamName, type, config);
    }

    private Producer<Order> producer(String streamName) {
        return producer(streamName, Order.class);
    }

    private static ProduceOptions.Builder options() {
        return ProduceOptions.builder();
    }

    private static MessageOptions message(Concurrency concurrency) {
        return MessageOptions.builder().concurrency(concurrency).build();
    }

    // ---------------------------------------------------------------------------------------------------- rows

    @Test
    void produceReturnsIncreasingIdsAndStoresTheRow() throws SQLException {
        Stream stream = register("produce.rows");
        Producer<Order> producer = producer("produce.rows");
        Producer<OrderV3> v3 = producer("produce.rows", OrderV3.class, ProducerConfig.defaults());

        ProduceResult plain = producer.produce(new Order("plain", 100));
        ProduceResult keyed = producer.produce(new Order("keyed", 200),
                options().routingKey("eu.payments.captured").messageKey("order-2").build());
        ProduceResult compacted = producer.produce(new Order("compacted", 300),
                options().messageKey("order-3").compaction(CompactionOptions.withRank(42)).build());
        ProduceResult third = v3.produce(new OrderV3("v3", "EUR"));
        ProduceResult emptyKeys = producer.produce(new Order("empty-keys", 5),
                options().routingKey("").messageKey("").idempotencyKey("").build());

        assertThat(List.of(plain, keyed, compacted, third, emptyKeys)).noneMatch(ProduceResult::duplicate);
        assertThat(plain.id()).isPositive();
        assertThat(keyed.id()).isGreaterThan(plain.id());
        assertThat(compacted.id()).isGreaterThan(keyed.id());
        assertThat(third.id()).isGreaterThan(compacted.id());
        assertThat(emptyKeys.id()).isGreaterThan(third.id());

        String columns = "SELECT schema_version, routing_key, message_key, compaction_rank, options IS NULL,"
                + " created_at IS NOT NULL FROM {s}.message_log_" + stream.id() + " WHERE id = ?";
        assertThat(sql.rows(columns, plain.id())).containsExactly(row(1, null, null, null, true, true));
        assertThat(sql.rows(columns, keyed.id()))
                .containsExactly(row(1, "eu.payments.captured", "order-2", null, true, true));
        assertThat(sql.rows(columns, compacted.id()))
                .containsExactly(row(1, null, "order-3", 42L, true, true));
        assertThat(sql.rows(columns, third.id())).containsExactly(row(3, null, null, null, true, true));
        assertThat(sql.rows(columns, emptyKeys.id()))
                .containsExactly(row(1, null, null, null, true, true));

        assertThat(payloadIs(database, stream.id(), plain.id(), new Order("plain", 100).json())).isTrue();
        assertThat(payloadIs(database, stream.id(), keyed.id(), new Order("keyed", 200).json())).isTrue();
        assertThat(payloadIs(database, stream.id(), third.id(), "{\"marker\": \"v3\", \"currency\": \"EUR\"}")).isTrue();
        assertThat(messages(database, stream.id())).isEqualTo(5);
        assertThat(claims(database, stream.id())).as("every produce writes one claim").isEqualTo(5);
    }

    /** One expected row; unlike List.of it may hold nulls. */
    private static List<Object> row(Object... values) {
        return java.util.Arrays.asList(values);
    }

    @Test
    void storedOptionsMergeTheProducerDefaultsUnderTheMessagesOwn() throws SQLException {
        Stream stream = register("produce.options");
        Producer<Order> plain = producer("produce.options");
        Producer<Order> defaulted = producer("produce.options", Order.class, new ProducerConfig(
                MessageOptions.builder().timeout(Duration.ofSeconds(10))
                        .retry(RetryPolicy.builder().maxRetries(4).baseDelay(Duration.ofSeconds(2)).build()).build(),
                null, null));
        Producer<Order> exclusiveByDefault = producer("produce.options", Order.class,
                new ProducerConfig(message(Concurrency.EXCLUSIVE), null, null));

        long none = plain.produce(new Order("none", 1)).id();
        long ownOnly = plain.produce(new Order("own-only", 1), options().message(MessageOptions.builder()
                .timeout(Duration.ofMillis(1500)).build()).build()).id();
        long merged = defaulted.produce(new Order("merged", 1), options().message(MessageOptions.builder()
                .retry(RetryPolicy.builder().maxRetries(5).build()).build()).build()).id();
        long overridden = defaulted.produce(new Order("overridden", 1), options().message(MessageOptions.builder()
                .timeout(Duration.ofMinutes(2)).concurrency(Concurrency.ORDERED).build()).messageKey("k").build()).id();
        long defaultsOnly = defaulted.produce(new Order("defaults-only", 1)).id();
        long policyDefault = exclusiveByDefault.produce(new Order("policy", 1), options().messageKey("k").build()).id();

        String options = "SELECT options::text FROM {s}.message_log_" + stream.id() + " WHERE id = ?";
        String equal = "SELECT options = ?::jsonb FROM {s}.message_log_" + stream.id() + " WHERE id = ?";
        assertThat(sql.value(options, none)).as("neither sets anything").isNull();
        assertThat(sql.value(equal, "{\"timeout\": \"1.5s\"}", ownOnly)).isEqualTo(true);
        assertThat(sql.value(options, merged)).isNotNull();
        assertThat(sql.value(equal,
                "{\"timeout\": \"10s\", \"retry\": {\"max_retries\": 5, \"base_delay\": \"2s\"}}", merged))
                .as("stored %s", sql.value(options, merged)).isEqualTo(true);
        assertThat(sql.value(equal, "{\"concurrency\": \"ordered\", \"timeout\": \"2m0s\","
                + " \"retry\": {\"max_retries\": 4, \"base_delay\": \"2s\"}}", overridden))
                .as("stored %s", sql.value(options, overridden)).isEqualTo(true);
        assertThat(sql.value(equal,
                "{\"timeout\": \"10s\", \"retry\": {\"max_retries\": 4, \"base_delay\": \"2s\"}}", defaultsOnly))
                .as("stored %s", sql.value(options, defaultsOnly)).isEqualTo(true);
        assertThat(sql.value(equal, "{\"concurrency\": \"exclusive\"}", policyDefault))
                .as("stored %s", sql.value(options, policyDefault)).isEqualTo(true);
    }

    @Test
    void storedOptionsAreExactlyTheBriefsExample() throws SQLException {
        Stream stream = register("produce.options.example");
        Producer<Order> producer = producer("produce.options.example", Order.class, new ProducerConfig(
                MessageOptions.builder().timeout(Duration.ofSeconds(10)).build(), null, null));
        long id = producer.produce(new Order("example", 1), options().message(MessageOptions.builder()
                .retry(RetryPolicy.builder().maxRetries(5).build()).build()).build()).id();
        assertThat(sql.value("SELECT options = '{\"timeout\": \"10s\", \"retry\": {\"max_retries\": 5}}'::jsonb"
                + " FROM {s}.message_log_" + stream.id() + " WHERE id = ?", id)).isEqualTo(true);
    }

    // -------------------------------------------------------------------------------------------- idempotency

    @Test
    void theSameCallerKeyTwiceWritesOneMessage() throws SQLException {
        Stream stream = register("produce.idem.same");
        Producer<Order> producer = producer("produce.idem.same");
        ProduceOptions keyed = options().idempotencyKey("payment-7781").build();

        ProduceResult first = producer.produce(new Order("first", 1), keyed);
        ProduceResult second = producer.produce(new Order("second", 2), keyed);

        assertThat(first.duplicate()).isFalse();
        assertThat(first.id()).isPositive();
        assertThat(second).isEqualTo(new ProduceResult(0, true));
        assertThat(messages(database, stream.id())).isEqualTo(1);
        assertThat(payloadIs(database, stream.id(), first.id(), new Order("first", 1).json())).isTrue();
        assertThat(claims(database, stream.id())).isEqualTo(1);

        List<ProduceResult> batch = producer.produceBatch(List.of(ProduceItem.of(new Order("third", 3), keyed),
                ProduceItem.of(new Order("fresh", 4))));
        assertThat(batch.get(0)).as("a key claimed by an earlier produce").isEqualTo(new ProduceResult(0, true));
        assertThat(batch.get(1).duplicate()).isFalse();
        assertThat(messages(database, stream.id())).isEqualTo(2);
    }

    @Test
    void aUuidKeyIsStoredVerbatim() throws SQLException {
        Stream stream = register("produce.idem.uuid");
        Producer<Order> producer = producer("produce.idem.uuid");
        String upper = "0190A6B2-3C4D-7E5F-8A9B-0C1D2E3F4A5B";
        UUID random = UUID.randomUUID();

        assertThat(producer.produce(new Order("upper", 1), options().idempotencyKey(upper).build()).duplicate()).isFalse();
        assertThat(producer.produce(new Order("random", 1), options().idempotencyKey(random.toString()).build())
                .duplicate()).isFalse();

        assertThat(claimed(database, stream.id(), UUID.fromString(upper))).isTrue();
        assertThat(claimed(database, stream.id(), random)).isTrue();
        assertThat(claims(database, stream.id())).isEqualTo(2);
        assertThat(producer.produce(new Order("lower", 1), options().idempotencyKey(upper.toLowerCase()).build()))
                .as("the same UUID in lower case").isEqualTo(new ProduceResult(0, true));
    }

    @Test
    void aTextKeyIsAStableNameBasedUuidAcrossClients() throws SQLException {
        Stream stream = register("produce.idem.text");
        Producer<Order> first = producer("produce.idem.text");
        EngineClient other = EngineFixtures.client(database, new RecordingLogger());
        try (Producer<Order> second = other.stream("produce.idem.text", Order.class).producer().register()) {
            ProduceResult written = first.produce(new Order("a", 1), options().idempotencyKey("invoice/2026/0042").build());
            ProduceResult again = second.produce(new Order("b", 2), options().idempotencyKey("invoice/2026/0042").build());

            assertThat(written.duplicate()).isFalse();
            assertThat(again).isEqualTo(new ProduceResult(0, true));
        }
        UUID expected = uuidV5("invoice/2026/0042");
        assertThat(expected.version()).isEqualTo(5);
        assertThat(sql.rows("SELECT idempotency_key FROM {s}.idempotency_key_" + stream.id()))
                .containsExactly(List.of(expected));
        assertThat(messages(database, stream.id())).isEqualTo(1);
    }

    @Test
    void withoutAKeyEveryCallMintsItsOwnForItsBatch() throws SQLException {
        Stream stream = register("produce.idem.minted");
        Producer<Order> producer = producer("produce.idem.minted");
        Order same = new Order("same", 1);

        ProduceResult one = producer.produce(same);
        ProduceResult two = producer.produce(same);
        List<ProduceResult> batch = producer.produceBatch(List.of(ProduceItem.of(same), ProduceItem.of(same)));

        assertThat(List.of(one, two, batch.get(0), batch.get(1))).noneMatch(ProduceResult::duplicate)
                .extracting(ProduceResult::id).doesNotHaveDuplicates();
        assertThat(messages(database, stream.id())).isEqualTo(4);
        assertThat(claims(database, stream.id())).as("one per call, the batch's one").isEqualTo(3);
        assertThat(sql.count("SELECT count(*) FROM {s}.idempotency_key_" + stream.id()
                + " WHERE substr(idempotency_key::text, 15, 1) = '7'")).as("minted keys are UUIDv7").isEqualTo(3);
    }

    // ---------------------------------------------------------------------------------------------- batches

    @Test
    void produceBatchAnswersInArgumentOrderAndWritesInKeyOrder() throws SQLException {
        Stream stream = register("produce.batch.order");
        Producer<Order> producer = producer("produce.batch.order");
        String[] keys = {"delta", null, "alpha", "charlie", null, "bravo", "alpha"};
        List<ProduceItem<Order>> items = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            items.add(ProduceItem.of(new Order("item-" + i, i), options().messageKey(keys[i]).build()));
        }

        List<ProduceResult> results = producer.produceBatch(items);

        assertThat(results).hasSize(items.size()).noneMatch(ProduceResult::duplicate);
        for (int i = 0; i < items.size(); i++) {
            long id = results.get(i).id();
            assertThat(payloadIs(database, stream.id(), id, items.get(i).message().json()))
                    .as("result %d (id %d) is item %d", i, id, i).isTrue();
            assertThat(sql.value("SELECT message_key FROM {s}.message_log_" + stream.id() + " WHERE id = ?", id))
                    .isEqualTo(keys[i]);
        }
        List<Integer> keyed = IntStream.range(0, keys.length).filter(i -> keys[i] != null).boxed()
                .sorted(Comparator.<Integer, String>comparing(i -> keys[i]).thenComparing(i -> i)).toList();
        List<Long> idsInKeyOrder = keyed.stream().map(i -> results.get(i).id()).toList();
        assertThat(idsInKeyOrder).as("ids ascend with message-key order (alpha, alpha, bravo, charlie, delta)")
                .isSorted();
        assertThat(messages(database, stream.id())).isEqualTo(keys.length);
    }

    @Test
    void produceBatchIsAllOrNothing() throws SQLException {
        Stream stream = register("produce.batch.atomic");
        Producer<Order> producer = producer("produce.batch.atomic");
        List<ProduceItem<Order>> items = List.of(
                ProduceItem.of(new Order("ok-1", 1), options().idempotencyKey("atomic-1").build()),
                ProduceItem.of(new Order("ok-2", 2), options().messageKey("k").build()),
                ProduceItem.of(new Order("bad", 3), options().message(message(Concurrency.EXCLUSIVE)).build()),
                ProduceItem.of(new Order("ok-4", 4)));

        SqlStreamsException failure = failsWith(Code.SQL0108, () -> producer.produceBatch(items));

        assertThat(failure).isInstanceOf(InvalidConfigurationException.class);
        assertThat(messages(database, stream.id())).isZero();
        assertThat(claims(database, stream.id())).isZero();
        assertThat(producer.produce(new Order("ok-1", 1), options().idempotencyKey("atomic-1").build()).duplicate())
                .as("the failed batch claimed nothing").isFalse();
    }

    @Test
    void produceBatchRollsBackEveryItemWhenTheDatabaseRejectsOne() throws SQLException {
        Stream stream = register("produce.batch.dbatomic");
        Producer<Order> producer = producer("produce.batch.dbatomic");
        rejectPayloadsMarked(database, stream.id(), "db-rejects-me");
        List<ProduceItem<Order>> items = List.of(
                ProduceItem.of(new Order("ok-1", 1), options().messageKey("a").idempotencyKey("db-atomic-1").build()),
                ProduceItem.of(new Order("db-rejects-me", 2), options().messageKey("b").build()),
                ProduceItem.of(new Order("ok-3", 3), options().messageKey("c").compaction(CompactionOptions.enabled())
                        .build()));

        SqlStreamsException failure = failsWith(Code.SQL0111, () -> producer.produceBatch(items));

        assertThat(failure.isTransient()).isFalse();
        assertThat(messages(database, stream.id())).isZero();
        assertThat(claims(database, stream.id())).isZero();
        assertThat(sql.count("SELECT count(*) FROM {s}.compaction_head_" + stream.id())).isZero();
        assertThat(producer.produce(new Order("ok-1", 1), options().idempotencyKey("db-atomic-1").build()).duplicate())
                .isFalse();
    }

    @Test
    void aPayloadTheDatabaseRejectsIsNotQuotedInTheError() throws SQLException {
        Stream stream = register("produce.payload.rejected");
        Producer<Order> producer = producer("produce.payload.rejected");
        // refused before anything is written: jsonb cannot store U+0000 (SQL0097); the secret sits before it
        Order secret = new Order("card 4111-1111-1111-1111\u0000", 2);

        for (ThrowingCallable call : List.<ThrowingCallable>of(
                () -> producer.produce(secret),
                () -> producer.produceBatch(List.of(ProduceItem.of(secret))),
                () -> producer.produce(secret, options().idempotencyKey("rejected").build()))) {
            Throwable failure = org.assertj.core.api.Assertions.catchThrowable(call);
            assertThat(failure).isInstanceOf(SqlStreamsException.class);
            assertThat(failure.getMessage()).as("the payload never appears in an error")
                    .doesNotContain("4111-1111-1111-1111");
        }
        assertThat(messages(database, stream.id())).isZero();
        assertThat(logger.lines()).noneMatch(line -> line.text().contains("4111-1111-1111-1111"));
    }

    @Test
    void aKeyRepeatedWithinOneBatchIsADuplicate() throws SQLException {
        Stream stream = register("produce.batch.repeat");
        Producer<Order> producer = producer("produce.batch.repeat");
        ProduceOptions keyed = options().idempotencyKey("batch-repeat").build();

        List<ProduceResult> results = producer.produceBatch(List.of(
                ProduceItem.of(new Order("first", 1), keyed),
                ProduceItem.of(new Order("other", 2)),
                ProduceItem.of(new Order("repeat", 3), keyed)));

        assertThat(results.get(0).duplicate()).isFalse();
        assertThat(results.get(1).duplicate()).isFalse();
        assertThat(results.get(2)).isEqualTo(new ProduceResult(0, true));
        assertThat(payloadIs(database, stream.id(), results.get(0).id(), new Order("first", 1).json())).isTrue();
        assertThat(payloadIs(database, stream.id(), results.get(1).id(), new Order("other", 2).json())).isTrue();
        assertThat(messages(database, stream.id())).isEqualTo(2);
        assertThat(claims(database, stream.id())).isEqualTo(2);
    }

    @Test
    void anEmptyBatchWritesNothing() throws SQLException {
        Stream stream = register("produce.batch.empty");
        assertThat(producer("produce.batch.empty").produceBatch(List.of())).isEmpty();
        assertThat(messages(database, stream.id())).isZero();
    }

    // ------------------------------------------------------------------------------------ produce-time rules

    @Test
    void everyProduceTimeRuleIsRejectedBeforeAnythingIsWritten() throws SQLException {
        Stream stream = register("produce.rules");
        Producer<Order> producer = producer("produce.rules");
        Producer<Order> exclusiveByDefault = producer("produce.rules", Order.class,
                new ProducerConfig(message(Concurrency.EXCLUSIVE), null, null));
        Producer<Order> orderedByDefault = producer("produce.rules", Order.class,
                new ProducerConfig(message(Concurrency.ORDERED), null, null));
        Order order = new Order("rule", 1);

        List<ThrowingCallable> rejected = List.of(
                () -> producer.produce(order, options().message(message(Concurrency.EXCLUSIVE)).build()),
                () -> producer.produce(order, options().message(message(Concurrency.ORDERED)).build()),
                () -> exclusiveByDefault.produce(order),
                () -> orderedByDefault.produce(order, options().routingKey("r").build()),
                () -> producer.produce(order, options().messageKey("k").message(message(Concurrency.ORDERED))
                        .compaction(CompactionOptions.enabled()).build()),
                () -> orderedByDefault.produce(order, options().messageKey("k").compaction(CompactionOptions.enabled())
                        .build()),
                () -> producer.produce(order, options().compaction(CompactionOptions.withRank(3)).build()),
                () -> producer.produce(order, options().compaction(new CompactionOptions(false, 3)).build()),
                () -> producer.produce(order, options().messageKey("k").compaction(new CompactionOptions(false, 3))
                        .build()),
                () -> producer.produce(order, options().message(MessageOptions.builder()
                        .timeout(Duration.ofSeconds(-1)).build()).build()),
                () -> producer.produce(order, options().message(MessageOptions.builder()
                        .retry(RetryPolicy.builder().maxRetries(-2).build()).build()).build()),
                () -> producer.produceBatch(List.of(ProduceItem.of(order),
                        ProduceItem.of(order, options().compaction(CompactionOptions.enabled()).build()))),
                () -> exclusiveByDefault.produceBatch(List.of(ProduceItem.of(order, options().messageKey("k").build()),
                        ProduceItem.of(order))),
                () -> exclusiveByDefault.produceInTransaction(connection -> order, ProduceOptions.none()));

        for (int i = 0; i < rejected.size(); i++) {
            SqlStreamsException failure = failsWith(Code.SQL0108, rejected.get(i));
            assertThat(failure).as("case %d", i).isInstanceOf(InvalidConfigurationException.class);
            assertThat(((InvalidConfigurationException) failure).violations()).as("case %d", i).isNotEmpty();
            assertThat(messages(database, stream.id())).as("case %d wrote nothing", i).isZero();
            assertThat(claims(database, stream.id())).as("case %d claimed nothing", i).isZero();
        }

        // the same options with their key are fine
        assertThat(exclusiveByDefault.produce(order, options().messageKey("k").build()).duplicate()).isFalse();
        assertThat(producer.produce(order, options().messageKey("k").compaction(new CompactionOptions(false, 0))
                .build()).duplicate()).isFalse();
    }

    @Test
    void invalidKeysAreRejectedAsInvalidNames() throws SQLException {
        Stream stream = register("produce.keys.invalid");
        Producer<Order> producer = producer("produce.keys.invalid");
        Order order = new Order("key", 1);
        String tooLong = "k".repeat(1025);

        List<ThrowingCallable> rejected = List.of(
                () -> producer.produce(order, options().messageKey("line\nbreak").build()),
                () -> producer.produce(order, options().messageKey("tab\tkey").build()),
                () -> producer.produce(order, options().routingKey("bell\u0007").build()),
                () -> producer.produce(order, options().routingKey("del\u007f").build()),
                () -> producer.produce(order, options().messageKey(tooLong).build()),
                () -> producer.produce(order, options().routingKey(tooLong).build()),
                () -> producer.produceBatch(List.of(ProduceItem.of(order),
                        ProduceItem.of(order, options().messageKey("nul\u0000").build()))));

        for (int i = 0; i < rejected.size(); i++) {
            assertThat(failsWith(Code.SQL0109, rejected.get(i))).as("case %d", i)
                    .isInstanceOf(InvalidNameException.class);
        }
        assertThat(messages(database, stream.id())).isZero();
        assertThat(claims(database, stream.id())).isZero();

        String longest = "k".repeat(1024);
        long id = producer.produce(order, options().messageKey(longest).routingKey(longest).build()).id();
        assertThat(sql.value("SELECT length(message_key) + length(routing_key) FROM {s}.message_log_"
                + stream.id() + " WHERE id = ?", id)).isEqualTo(2048);
    }

    @Test
    void keysWithQuotesAndSemicolonsAreStoredVerbatim() throws SQLException {
        Stream stream = register("produce.keys.quoted");
        Producer<Order> producer = producer("produce.keys.quoted");
        String key = "o'brien; DROP TABLE x";
        String routing = "\"route\"; DELETE FROM y; --'";
        String unicode = "clé-ß-日本-😀";

        long id = producer.produce(new Order("quoted", 1), options().messageKey(key).routingKey(routing)
                .compaction(CompactionOptions.enabled()).build()).id();
        long batched = producer.produceBatch(List.of(ProduceItem.of(new Order("unicode", 2),
                options().messageKey(unicode).routingKey(unicode).build()))).get(0).id();

        assertThat(sql.rows("SELECT message_key, routing_key FROM {s}.message_log_" + stream.id()
                + " WHERE id = ?", id)).containsExactly(List.of(key, routing));
        assertThat(sql.rows("SELECT message_key, routing_key FROM {s}.message_log_" + stream.id()
                + " WHERE id = ?", batched)).containsExactly(List.of(unicode, unicode));
        assertThat(sql.rows("SELECT compaction_key, message_id FROM {s}.compaction_head_" + stream.id()))
                .containsExactly(List.of(key, id));
        assertThat(client.stream("produce.keys.quoted", Order.class).key(key).compactionHead().id()).isEqualTo(id);
    }

    @Test
    void aPayloadTypeWithoutSchemaVersionCannotRegister() {
        register("produce.unversioned");
        SqlStreamsException failure = failsWith(Code.SQL0134,
                () -> client.stream("produce.unversioned", Unversioned.class).producer().register());
        assertThat(failure.getMessage()).contains("payload " + Unversioned.class.getName() + " has no @SchemaVersion");
    }

    @Test
    void aPayloadJsonbCannotEncodeIsSql0097WithoutItsContent() throws SQLException {
        Stream stream = client.stream("produce.unencodable", Unencodable.class).register();
        Producer<Unencodable> producer = producer("produce.unencodable", Unencodable.class, ProducerConfig.defaults());
        String secret = "4111-1111-1111-1111";

        for (ThrowingCallable call : List.<ThrowingCallable>of(
                () -> producer.produce(new Unencodable(secret)),
                () -> producer.produceBatch(List.of(ProduceItem.of(new Unencodable(secret)))),
                () -> producer.produce(new Unencodable(secret), options().idempotencyKey("unencodable").build()))) {
            SqlStreamsException failure = failsWith(Code.SQL0097, call);
            for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                assertThat(String.valueOf(cause.getMessage())).as("message of %s", cause.getClass())
                        .doesNotContain(secret);
                for (Throwable suppressed : cause.getSuppressed()) {
                    assertThat(String.valueOf(suppressed.getMessage())).doesNotContain(secret);
                }
            }
            assertThat(failure.isTransient()).isFalse();
        }
        assertThat(messages(database, stream.id())).isZero();
        assertThat(claims(database, stream.id())).isZero();
        assertThat(logger.lines()).noneMatch(line -> line.text().contains(secret));
    }

    @Test
    void producingToAnUnregisteredStreamFailsAtRegister() {
        register("produce.some.other.stream");
        failsWith(Code.SQL0005, () -> client.stream("produce.never.registered", Order.class).producer().register());
        failsWith(Code.SQL0109, () -> client.stream("bad name!", Order.class).producer().register());
    }

    // ------------------------------------------------------------------------------------ producer lifecycle

    @Test
    void anInvalidProducerConfigIsRejectedAtRegister() {
        register("produce.config.invalid");
        List<ProducerConfig> invalid = List.of(
                new ProducerConfig(MessageOptions.builder().timeout(Duration.ofSeconds(-5)).build(), null, null),
                new ProducerConfig(null, new io.sqlstreams.BatcherConfig(-1, null, null, null), null),
                new ProducerConfig(null, new io.sqlstreams.BatcherConfig(null, -2, null, null), null),
                new ProducerConfig(null, null, Duration.ofMillis(-1)));
        for (ProducerConfig config : invalid) {
            assertThat(failsWith(Code.SQL0108, () -> client.stream("produce.config.invalid", Order.class).producer()
                    .register(config))).as("%s", config).isInstanceOf(InvalidConfigurationException.class);
        }
    }

    @Test
    void aSlowProduceLogsSql0038() throws SQLException {
        register("produce.slow");
        Producer<Order> producer = producer("produce.slow", Order.class,
                new ProducerConfig(null, null, Duration.ofNanos(1)));
        producer.produce(new Order("slow", 1));
        producer.produceBatch(List.of(ProduceItem.of(new Order("slow-batch", 1))));
        assertThat(logger.withCode("SQL0038")).hasSizeGreaterThanOrEqualTo(2)
                .allMatch(line -> line.contains("produce.slow") && !line.contains("slow-batch"));
    }

    @Test
    void aProducerKeepsItsStreamAcrossARenameAndFailsOnceItIsDestroyed() throws SQLException {
        Stream stream = register("produce.renamed");
        Producer<Order> producer = producer("produce.renamed");
        producer.produce(new Order("before", 1));

        client.stream("produce.renamed", Order.class).rename("produce.renamed.now");
        long after = producer.produce(new Order("after", 2)).id();
        assertThat(payloadIs(database, stream.id(), after, new Order("after", 2).json())).isTrue();

        client.stream("produce.renamed.now", Order.class).destroy(io.sqlstreams.DestroyOptions.forced());
        failsWith(Code.SQL0005, () -> producer.produce(new Order("gone", 3)));
        failsWith(Code.SQL0005, () -> producer.produceBatch(List.of(ProduceItem.of(new Order("gone", 4)))));
        failsWith(Code.SQL0005, () -> producer.produce(new Order("gone", 5),
                options().idempotencyKey("gone").build()));
    }
}
