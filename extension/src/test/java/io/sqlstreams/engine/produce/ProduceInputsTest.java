package io.sqlstreams.engine.produce;

import static io.sqlstreams.engine.produce.LogRows.claims;
import static io.sqlstreams.engine.produce.LogRows.failsWith;
import static io.sqlstreams.engine.produce.LogRows.messages;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
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
