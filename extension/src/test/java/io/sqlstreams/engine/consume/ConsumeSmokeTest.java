package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

@PostgresTest
class ConsumeSmokeTest {
    @SchemaVersion(1)
    public record Order(int n) {
    }

    @Test
    void consumesEverythingRetriesAndDeadLetters(TestDatabase database) throws Exception {
        RecordingLogger logger = new RecordingLogger();
        EngineClient client = EngineFixtures.client(database, logger);
        StreamHandle<Order> stream = client.stream("orders.smoke", Order.class);
        stream.register();
        try (Producer<Order> producer = stream.producer().register()) {
            producer.produceBatch(IntStream.rangeClosed(1, 100).mapToObj(n -> ProduceItem.of(new Order(n))).toList());
        }
        ConsumerInstance<Order> group = stream.consumer("smoke").register(ConsumerConfig.builder()
                .exceptionInitialBackoff(Duration.ofMillis(10))
                .message(MessageOptions.builder().retry(RetryPolicy.builder().baseDelay(Duration.ofMillis(10))
                        .maxDelay(Duration.ofMillis(50)).build()).build())
                .build());
        Set<Integer> handled = ConcurrentHashMap.newKeySet();
        ConcurrentHashMap<Integer, Integer> runs = new ConcurrentHashMap<>();
        try (ConsumerSession session = group.start(order -> {
            runs.merge(order.n(), 1, Integer::sum);
            if (order.n() == 7) {
                throw Outcome.terminal("seven is poison");
            }
            if (order.n() == 13 && runs.get(13) < 3) {
                throw new IllegalStateException("thirteen fails twice");
            }
            if (order.n() == 21) {
                throw new IllegalStateException("always fails");
            }
            handled.add(order.n());
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).batchLimit(10).build())) {
            assertThat(session.awaitStarted(Duration.ofSeconds(10))).isTrue();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(handled).hasSize(98);
                assertThat(runs.get(13)).isEqualTo(3);
                assertThat(runs.get(21)).isEqualTo(4);
                assertThat(session.counters().dead()).isEqualTo(2);
            });
            assertThat(runs.get(7)).isEqualTo(1);
        }
        assertThat(logger.withCode("SQL0041")).hasSize(1);
        var inspection = stream.consumer("smoke").inspect();
        assertThat(inspection.dead()).isEqualTo(2);
        assertThat(inspection.committed()).isEqualTo(100);
    }
}
