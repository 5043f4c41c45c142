package io.sqlstreams.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.CompactionOptions;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Measurement;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.testing.PostgresTest;

/** Digest §7.5: the live stream and consumer-group readings behind the built-in metrics. */
@PostgresTest
class ResourceMetricsTest extends EngineTestBase {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @SchemaVersion(1)
    public record Order(int n) {
    }

    @Test
    void aLaggingGroupAndAGroupWithDeadLettersReadAsTheirRowsSay() {
        StreamHandle<Order> stream = client.stream("metrics.orders", Order.class);
        stream.register();
        stream.consumer("lagging").register();
        try (Producer<Order> producer = stream.producer().register()) {
            producer.produceBatch(IntStream.rangeClosed(1, 40).mapToObj(n -> ProduceItem.of(new Order(n))).toList());
        }
        Instant before = Instant.now().minusSeconds(5);
        try (ConsumerSession session = stream.consumer("poisoned").register().start(order -> {
            if (order.n() % 10 == 0) {
                throw Outcome.terminal("every tenth is poison");
            }
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).batchLimit(8).build())) {
            await().atMost(WAIT).untilAsserted(() ->
                    assertThat(values(stream.consumer("poisoned").metrics().snapshot()))
                            .containsEntry("sqlstreams.consumer.cursor.committed", 40.0)
                            .containsEntry("sqlstreams.consumer.instances.live", 1.0));
        }

        Map<String, Double> poisoned = values(stream.consumer("poisoned").metrics().snapshot());
        assertThat(poisoned).containsEntry("sqlstreams.consumer.cursor.head", 40.0)
                .containsEntry("sqlstreams.consumer.cursor.claimed", 40.0)
                .containsEntry("sqlstreams.consumer.cursor.backlog", 0.0)
                .containsEntry("sqlstreams.consumer.cursor.inflight", 0.0)
                .containsEntry("sqlstreams.consumer.exceptions.dead", 4.0)
                .containsEntry("sqlstreams.consumer.exceptions.ready", 0.0)
                .containsEntry("sqlstreams.consumer.exceptions.oldest_unresolved_age", 0.0)
                .containsEntry("sqlstreams.consumer.open_leases", 0.0)
                .as("the stopped session released its instance")
                .containsEntry("sqlstreams.consumer.instances.live", 0.0);
        List<Measurement> lagging = stream.consumer("lagging").metrics().snapshot();
        assertThat(values(lagging)).containsEntry("sqlstreams.consumer.cursor.head", 40.0)
                .containsEntry("sqlstreams.consumer.cursor.committed", 0.0)
                .containsEntry("sqlstreams.consumer.cursor.backlog", 40.0)
                .containsEntry("sqlstreams.consumer.exceptions.dead", 0.0)
                .containsEntry("sqlstreams.consumer.abandoned_routines.total", 0.0);
        assertThat(lagging).as("SQL0080–SQL0093, SQL0155").hasSize(15).allSatisfy(measurement -> {
            assertThat(measurement.attributes()).isEqualTo(Map.of("stream", "metrics.orders", "group", "lagging"));
            assertThat(measurement.at()).isBetween(before, Instant.now().plusSeconds(5));
            assertThat(BuiltInMetrics.named(measurement.name()).orElseThrow().unit()).isEqualTo(measurement.unit());
        });
    }

    @Test
    void aStreamReadsItsPartitionsCompactionAndWorkersWithoutALiveInstance() {
        StreamHandle<Order> stream = client.stream("metrics.compacting", Order.class);
        stream.register();

        Map<String, Double> fresh = values(stream.metrics().snapshot());
        assertThat(fresh).containsEntry("sqlstreams.stream.state.partitions", 1.0)
                .containsEntry("sqlstreams.stream.state.compacted", 0.0)
                .containsEntry("sqlstreams.stream.workers.unclaimed", 1.0)
                .containsEntry("sqlstreams.stream.fence.oldest_holder_age", 0.0);
        try (Producer<Order> producer = stream.producer().register()) {
            producer.produce(new Order(1), ProduceOptions.builder().messageKey("k")
                    .compaction(CompactionOptions.enabled()).build());
        }
        stream.consumer("reader").register();

        long groupWorkers = stream.consumer("reader").workers().stream()
                .filter(worker -> worker.targetInstances() != 0).count();

        Map<String, Double> later = values(stream.metrics().snapshot());
        assertThat(groupWorkers).isPositive();
        assertThat(later).containsEntry("sqlstreams.stream.state.compacted", 1.0)
                .containsEntry("sqlstreams.stream.workers.unclaimed", 1.0 + groupWorkers);
        assertThat(stream.metrics().latest()).as("nothing recorded yet").isEmpty();
    }

    @Test
    void unknownOrMalformedOwnersFailWithTheirCodes() {
        client.stream("metrics.known", Order.class).register();

        assertThat(codeOf(() -> client.stream("metrics.unknown", Order.class).metrics().snapshot()))
                .isEqualTo(Code.SQL0005);
        assertThat(codeOf(() -> client.stream("metrics.known", Order.class).consumer("nobody").metrics().snapshot()))
                .isEqualTo(Code.SQL0014);
        assertThat(codeOf(() -> client.stream("metrics.known", Order.class).consumer("bad name;").metrics().snapshot()))
                .isEqualTo(Code.SQL0109);
        assertThat(codeOf(() -> client.stream("'; DROP TABLE x", Order.class).metrics().latest()))
                .isEqualTo(Code.SQL0109);
    }

    private static Map<String, Double> values(List<Measurement> measurements) {
        return measurements.stream().collect(Collectors.toMap(Measurement::name, Measurement::value));
    }

    private static Code codeOf(Runnable call) {
        try {
            call.run();
        } catch (SqlStreamsException failure) {
            return failure.code();
        }
        throw new AssertionError("no failure");
    }
}
