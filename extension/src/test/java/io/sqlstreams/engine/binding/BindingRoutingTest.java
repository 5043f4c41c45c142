package io.sqlstreams.engine.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Binding;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;

/** Routing bindings: the pattern table, keyless messages, the effective set, and how a change lands. */
@PostgresTest
class BindingRoutingTest extends EngineTestBase {
    private static final List<String> KEYS = List.of("orders.eu.created", "orders.us.central1.created",
            "orders.eu.updated");

    @SchemaVersion(1)
    public record Routed(String label) {
    }

    @Test
    void eachGroupReceivesTheRoutingKeysItsPatternsMatch() throws Exception {
        StreamHandle<Routed> stream = client.stream("routing.table", Routed.class);
        stream.register();
        Map<String, Set<String>> received = new ConcurrentHashMap<>();
        List<ConsumerSession> sessions = new java.util.ArrayList<>();
        Map<String, List<String>> groups = Map.of(
                "created", List.of("orders.*.created"),
                "eu", List.of("orders.eu.*"),
                "all-orders", List.of("orders.*"),
                "whole-stream", List.of());
        for (Map.Entry<String, List<String>> group : groups.entrySet()) {
            ConsumerInstance<Routed> instance = stream.consumer(group.getKey())
                    .register(ConsumerConfig.builder().bindings(group.getValue().isEmpty() ? null : group.getValue()).build());
            sessions.add(instance.start(message -> received.computeIfAbsent(group.getKey(),
                    name -> ConcurrentHashMap.newKeySet()).add(message.label()), fast()));
        }
        try (Producer<Routed> producer = stream.producer().register()) {
            for (String key : KEYS) {
                producer.produce(new Routed(key), ProduceOptions.builder().routingKey(key).build());
            }
            producer.produce(new Routed("keyless"));
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(received.get("created")).containsExactlyInAnyOrder("orders.eu.created", "orders.us.central1.created");
            assertThat(received.get("eu")).containsExactlyInAnyOrder("orders.eu.created", "orders.eu.updated");
            assertThat(received.get("all-orders")).containsExactlyInAnyOrderElementsOf(KEYS);
            assertThat(received.get("whole-stream")).containsExactlyInAnyOrder("orders.eu.created",
                    "orders.us.central1.created", "orders.eu.updated", "keyless");
            for (String group : groups.keySet()) {
                assertThat(stream.consumer(group).inspect().committed()).isEqualTo(4);
            }
        });
        sessions.forEach(ConsumerSession::close);
        assertThat(stream.consumer("created").binding().get()).hasValueSatisfying(binding -> {
            assertThat(binding.patterns()).containsExactly("orders.*.created");
            assertThat(binding.status()).isEqualTo("installed");
        });
        assertThat(stream.consumer("whole-stream").binding().get()).isEmpty();
    }

    @Test
    void aChangedSetWaitsWhileAnInstanceIsLiveAndLandsAfterItStops() throws Exception {
        StreamHandle<Routed> stream = client.stream("routing.change", Routed.class);
        stream.register();
        Set<String> received = ConcurrentHashMap.newKeySet();
        ConsumerSession old = stream.consumer("billing")
                .register(ConsumerConfig.builder().bindings(List.of("eu.*")).build())
                .start(message -> received.add("old:" + message.label()), fast());
        ConsumerInstance<Routed> redeclared = client.stream("routing.change", Routed.class).consumer("billing")
                .register(ConsumerConfig.builder().bindings(List.of("us.*")).build());
        assertThat(stream.consumer("billing").binding().get()).hasValueSatisfying(binding ->
                assertThat(binding.patterns()).containsExactly("eu.*"));
        assertThat(new Sql(database).count("SELECT count(*) FROM {s}.binding_config_log_" + streamId(stream)
                + " WHERE status = 'waiting'")).isEqualTo(1);
        assertThat(client.bindings()).filteredOn(binding -> binding.stream().equals("routing.change"))
                .extracting(Binding::consumerGroup, Binding::status, Binding::patterns)
                .containsExactly(tuple("billing", "installed", List.of("eu.*")),
                        tuple("billing", "waiting", List.of("us.*")));

        try (Producer<Routed> producer = stream.producer().register()) {
            producer.produceBatch(List.of(
                    ProduceItem.of(new Routed("eu-1"), ProduceOptions.builder().routingKey("eu.1").build()),
                    ProduceItem.of(new Routed("us-1"), ProduceOptions.builder().routingKey("us.1").build())));
            await().atMost(Duration.ofSeconds(20)).until(() -> received.contains("old:eu-1"));
            old.close();
            try (ConsumerSession replacement = redeclared.start(message -> received.add("new:" + message.label()),
                    fast())) {
                await().atMost(Duration.ofSeconds(20)).until(() -> stream.consumer("billing").binding().get()
                        .map(binding -> binding.patterns().equals(List.of("us.*"))).orElse(false));
                producer.produce(new Routed("us-2"), ProduceOptions.builder().routingKey("us.2").build());
                await().atMost(Duration.ofSeconds(20)).until(() -> received.contains("new:us-2"));
            }
        }
        assertThat(received).as("forward only: us-1 was passed over before the new set was installed")
                .containsExactlyInAnyOrder("old:eu-1", "new:us-2");
    }

    private static ConsumeOptions fast() {
        return ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).bindingRetryInterval(Duration.ofMillis(100))
                .build();
    }

    private static long streamId(StreamHandle<?> stream) {
        return stream.get().orElseThrow().id();
    }
}
