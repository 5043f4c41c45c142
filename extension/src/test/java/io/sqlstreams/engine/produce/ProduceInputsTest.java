package io.sqlstreams.engine.produce;

import static io.sqlstreams.engine.produce.LogRows.claims;
import static io.sqlstreams.engine.produce.LogRows.failsWith;
import static io.sqlstreams.engine.produce.LogRows.messages;
import static io.sqlstreams.engine.produce.LogRows.payloadIs;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import io.sqlstreams.BatcherConfig;
import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.Limits;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.testing.PostgresTest;

/**
 * Issue 13 §6.4 and §6.5, the produce side: inputs that once slipped through to a crash or a silently changed row
 * are refused with a code before anything is written.
 */
@PostgresTest
class ProduceInputsTest extends ProduceTestBase {
    private static final Duration HUGE = Duration.ofSeconds(Long.MAX_VALUE);

    @SchemaVersion(1)
    public record Note(String text) {
    }

    private Stream register(String streamName) {
        return client.stream(streamName, Note.class).register();
    }

    /** Every form of produce with {@code payload} and {@code options}, the caller's transaction included. */
    private List<ThrowingCallable> everyProduce(Producer<Note> producer, Note payload, ProduceOptions options) {
        return List.of(
                () -> producer.produce(payload, options),
                () -> producer.produce(payload, new ProduceOptions(options.routingKey(), options.messageKey(),
                        options.compaction(), "keyed", options.message())),
                () -> producer.produceBatch(List.of(ProduceItem.of(new Note("fine")), ProduceItem.of(payload, options))),
                () -> producer.produceInTransaction(connection -> payload, options),
                () -> {
                    try (Connection connection = database.dataSource().getConnection()) {
                        producer.produce(connection, payload, options);
                    }
                });
    }

    private void assertNothingWritten(Stream stream) throws SQLException {
        assertThat(messages(database, stream.id())).as("messages written").isZero();
        assertThat(claims(database, stream.id())).as("idempotency claims written").isZero();
    }

    @Test
    void aHugeBatcherDurationIsRefusedAtRegisterNamingIt() {
        register("inputs.batcher");
        for (BatcherConfig batch : List.of(new BatcherConfig(null, null, HUGE, null),
                new BatcherConfig(null, null, null, HUGE))) {
            SqlStreamsException refused = failsWith(Code.SQL0108, () -> client.stream("inputs.batcher", Note.class)
                    .producer().register(new ProducerConfig(null, batch, null)));
            assertThat(((InvalidConfigurationException) refused).violations())
                    .extracting(InvalidConfigurationException.Violation::property)
                    .containsExactly(batch.attemptTimeout() != null ? "batch.attemptTimeout" : "batch.shutdownGrace");
            assertThat(refused.getMessage()).contains(Limits.LONGEST_TIMING.toString());
        }
        Producer<Note> longest = producer(client, "inputs.batcher", Note.class, new ProducerConfig(null,
                new BatcherConfig(null, null, Limits.LONGEST_TIMING, Limits.LONGEST_TIMING), null));
        assertThat(longest.produce(new Note("at the bound")).duplicate()).isFalse();
    }

    @Test
    void aLoneSurrogateInAPayloadIsRefusedLikeANul() throws SQLException {
        Stream stream = register("inputs.surrogate");
        Producer<Note> producer = producer("inputs.surrogate", Note.class);

        for (ThrowingCallable call : everyProduce(producer, new Note("x\uD800y"), ProduceOptions.none())) {
            SqlStreamsException refused = failsWith(Code.SQL0097, call);
            assertThat(refused.getMessage()).contains(Note.class.getName()).doesNotContain("x\uD800y");
        }
        assertNothingWritten(stream);

        Note paired = new Note("x\uD83D\uDE00y");
        long id = producer.produce(paired).id();
        assertThat(payloadIs(database, stream.id(), id, "{\"text\": \"x\uD83D\uDE00y\"}"))
                .as("a surrogate pair is stored intact").isTrue();
    }

    @Test
    void aLoneSurrogateInAKeyIsAnInvalidName() throws SQLException {
        Stream stream = register("inputs.surrogate.key");
        Producer<Note> producer = producer("inputs.surrogate.key", Note.class);

        for (ProduceOptions options : List.of(ProduceOptions.builder().messageKey("k\uDC00").build(),
                ProduceOptions.builder().routingKey("\uD800r").build())) {
            failsWith(Code.SQL0109, () -> producer.produce(new Note("keyed"), options));
        }
        assertNothingWritten(stream);
    }

    @Test
    void aNullPayloadIsRefusedWithACodeInEveryForm() throws SQLException {
        Stream stream = register("inputs.null.payload");
        Producer<Note> producer = producer("inputs.null.payload", Note.class);

        for (ThrowingCallable call : everyProduce(producer, null, ProduceOptions.none())) {
            failsWith(Code.SQL0097, call);
        }
        assertNothingWritten(stream);
    }

    @Test
    void aNullBatchOrANullItemIsRefusedWithACode() throws SQLException {
        Stream stream = register("inputs.null.items");
        Producer<Note> producer = producer("inputs.null.items", Note.class);

        SqlStreamsException noList = failsWith(Code.SQL0108, () -> producer.produceBatch(null));
        SqlStreamsException noItem = failsWith(Code.SQL0108,
                () -> producer.produceBatch(Arrays.asList(ProduceItem.of(new Note("fine")), null)));

        assertThat(((InvalidConfigurationException) noList).violations())
                .extracting(InvalidConfigurationException.Violation::property).containsExactly("items");
        assertThat(((InvalidConfigurationException) noItem).violations())
                .extracting(InvalidConfigurationException.Violation::property).containsExactly("items[1]");
        assertNothingWritten(stream);
    }

    @Test
    void aNullPayloadTypeIsRefusedAtRegister() {
        register("inputs.null.type");

        SqlStreamsException refused = failsWith(Code.SQL0108,
                () -> client.stream("inputs.null.type", null).producer().register());

        assertThat(((InvalidConfigurationException) refused).violations())
                .extracting(InvalidConfigurationException.Violation::property).containsExactly("payloadType");
    }

    @Test
    void aScheduledAtOutsideTheWritableYearsIsRefusedBeforeAnythingIsWritten() throws SQLException {
        Stream stream = register("inputs.scheduled");
        Producer<Note> producer = producer("inputs.scheduled", Note.class);

        for (Instant outside : List.of(Instant.MAX, Instant.MIN)) {
            ProduceOptions options = ProduceOptions.builder()
                    .message(MessageOptions.builder().scheduledAt(outside).build()).build();
            for (ThrowingCallable call : everyProduce(producer, new Note("scheduled"), options)) {
                SqlStreamsException refused = failsWith(Code.SQL0108, call);
                assertThat(((InvalidConfigurationException) refused).violations())
                        .extracting(InvalidConfigurationException.Violation::property)
                        .containsExactly("message.scheduledAt");
            }
        }
        assertNothingWritten(stream);

        long id = producer.produce(new Note("latest"), ProduceOptions.builder()
                .message(MessageOptions.builder().scheduledAt(Limits.LATEST_SCHEDULED_AT).build()).build()).id();
        assertThat(sql.text("SELECT options ->> 'scheduled_at' FROM {s}.message_log_" + stream.id() + " WHERE id = ?",
                id)).isEqualTo("9999-12-31T23:59:59.999999999Z");
    }

    @Test
    void aPartitionSizeBeyondTheLargestIsRefusedAtRegister() throws SQLException {
        register("inputs.partition.warmup");
        long streams = sql.count("SELECT count(*) FROM {s}.stream_config");

        SqlStreamsException refused = failsWith(Code.SQL0108, () -> client.stream("inputs.partition", Note.class)
                .register(StreamConfig.builder().partitionSize(Long.MAX_VALUE).build()));

        assertThat(((InvalidConfigurationException) refused).violations())
                .extracting(InvalidConfigurationException.Violation::property).containsExactly("partitionSize");
        assertThat(refused.getMessage()).contains(Long.toString(Limits.LARGEST_PARTITION_SIZE));
        assertThat(sql.count("SELECT count(*) FROM {s}.stream_config")).isEqualTo(streams);

        Stream largest = client.stream("inputs.partition", Note.class)
                .register(StreamConfig.builder().partitionSize(Limits.LARGEST_PARTITION_SIZE).build());
        Producer<Note> producer = producer("inputs.partition", Note.class);
        assertThat(producer.produce(new Note("first")).id()).isPositive();
        assertThat(messages(database, largest.id())).isEqualTo(1);
        assertThat(logger.withCode("SQL0033")).as("partition create-ahead failures").isEmpty();
    }

    @Test
    void aHugeMessageTimeoutIsRefusedBeforeAnythingIsWritten() throws SQLException {
        Stream stream = register("inputs.timeout");
        Producer<Note> producer = producer("inputs.timeout", Note.class);
        ProduceOptions huge = ProduceOptions.builder().message(MessageOptions.builder().timeout(HUGE).build()).build();

        for (ThrowingCallable call : everyProduce(producer, new Note("huge"), huge)) {
            SqlStreamsException refused = failsWith(Code.SQL0108, call);
            assertThat(((InvalidConfigurationException) refused).violations())
                    .extracting(InvalidConfigurationException.Violation::property).containsExactly("message.timeout");
        }
        assertNothingWritten(stream);
    }
}
