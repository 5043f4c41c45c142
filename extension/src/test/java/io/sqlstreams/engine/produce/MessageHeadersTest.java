package io.sqlstreams.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.MessageHeaders;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Outcome;
import io.sqlstreams.PageRequest;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;

/**
 * Message headers from produce to every run of a handler and to the operator views, and the rules that refuse bad
 * ones before anything is written.
 */
@PostgresTest
class MessageHeadersTest extends EngineTestBase {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    private static final String SQL_TEXT = "'; DROP TABLE x; -- \"quoted\" ünïcödé";

    @SchemaVersion(1)
    public record Order(int n) {
    }

    @Test
    void headersReachEveryRunOfTheHandlerAndTheOperatorViews() throws Exception {
        StreamHandle<Order> stream = client.stream("orders.headers", Order.class);
        Stream created = stream.register();
        Map<String, String> headers = Map.of("traceparent", TRACEPARENT, "tenant.id", "acme", "note", SQL_TEXT);
        try (Producer<Order> producer = stream.producer().register()) {
            producer.produce(new Order(1), ProduceOptions.builder().messageKey("k1").headers(headers).build());
            producer.produce(new Order(2), ProduceOptions.builder().messageKey("k1").build());
            producer.produce(new Order(3), ProduceOptions.builder().header("tenant.id", "globex").build());
        }
        Map<String, Map<String, String>> seen = new ConcurrentHashMap<>();
        ConsumerConfig config = ConsumerConfig.builder().exceptionInitialBackoff(Duration.ofMillis(10))
                .message(MessageOptions.builder().retry(RetryPolicy.builder().maxRetries(1)
                        .baseDelay(Duration.ofMillis(10)).maxDelay(Duration.ofMillis(20)).build()).build())
                .build();
        try (ConsumerSession session = stream.consumer("billing").register(config).start(order -> {
            MessageMeta meta = MessageMeta.current();
            seen.put(order.n() + "/" + meta.attempt(), meta.headers());
            if (order.n() == 3) {
                throw new IllegalStateException("three always fails");
            }
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build())) {
            await().atMost(WAIT).until(() -> session.counters().dead() == 1);
        }

        assertThat(seen).containsOnlyKeys("1/1", "2/1", "3/1", "3/2");
        assertThat(seen.get("1/1")).isEqualTo(headers);
        assertThat(seen.get("2/1")).as("no headers").isEmpty();
        assertThat(seen.get("3/1")).isEqualTo(Map.of("tenant.id", "globex"));
        assertThat(seen.get("3/2")).as("a retry from the exception queue").isEqualTo(Map.of("tenant.id", "globex"));
        assertThat(stream.key("k1").messages(10)).extracting(message -> message.headers())
                .containsExactly(Map.of(), headers);
        List<DeadLetter> dead = stream.consumer("billing").deadLetters().list(DeadLetterFilter.all(),
                PageRequest.first(10)).letters();
        assertThat(dead).singleElement().extracting(DeadLetter::headers).isEqualTo(Map.of("tenant.id", "globex"));
        assertThat(new Sql(database).strings("SELECT coalesce(headers::text, 'NULL') FROM {s}.message_log_"
                + created.id() + " ORDER BY id")).as("a message without headers stores none")
                .element(1).isEqualTo("NULL");
    }

    @Test
    void headersThatBreakARuleAreRefusedWithNothingWritten() throws Exception {
        StreamHandle<Order> stream = client.stream("orders.bad-headers", Order.class);
        Stream created = stream.register();
        Map<String, String> tooMany = new HashMap<>();
        IntStream.rangeClosed(1, MessageHeaders.MOST_HEADERS + 1).forEach(n -> tooMany.put("h" + n, "v"));
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("tenant", null);
        String secret = "s3cr3t-value";
        try (Producer<Order> producer = stream.producer().register()) {
            assertRefused(producer, tooMany, "33 headers, more than 32");
            assertRefused(producer, Map.of("bad name", secret), "name \"bad name\" is not 1 to 64");
            assertRefused(producer, Map.of("x';DROP", secret), "name \"x';DROP\"");
            assertRefused(producer, Map.of("", secret), "name \"\"");
            assertRefused(producer, Map.of("-lead", secret), "name \"-lead\"");
            assertRefused(producer, Map.of("n".repeat(65), secret), "is not 1 to 64");
            assertRefused(producer, nullValue, "header \"tenant\" has no value");
            assertRefused(producer, Map.of("tenant", "a\u0000" + secret), "control character");
            assertRefused(producer, Map.of("big", "x".repeat(MessageHeaders.LARGEST_SIZE)),
                    "names and values take 8195 bytes, more than 8192");
            assertThat(new Sql(database).count("SELECT count(*) FROM {s}.message_log_" + created.id())).isZero();

            producer.produce(new Order(1), ProduceOptions.builder()
                    .header("big", "x".repeat(MessageHeaders.LARGEST_SIZE - 3 - 64)).header("n".repeat(64), "").build());
        }
        assertThat(new Sql(database).count("SELECT count(*) FROM {s}.message_log_" + created.id())).isOne();
    }

    private static void assertRefused(Producer<Order> producer, Map<String, String> headers, String problem) {
        assertThatThrownBy(() -> producer.produce(new Order(1), ProduceOptions.none().withHeaders(headers)))
                .isInstanceOfSatisfying(SqlStreamsException.class, refused -> {
                    assertThat(refused.code()).isEqualTo(Code.SQL0153);
                    assertThat(refused.getMessage()).contains(problem).contains("nothing was written")
                            .doesNotContain("s3cr3t");
                });
    }
}
