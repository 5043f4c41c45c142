package io.sqlstreams.engine.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * A host's own metrics (MicroProfile Metrics on a server whose OpenTelemetry traces only) without any OpenTelemetry:
 * sends counted without duplicates, every handler run consumed and timed, a failed run with its error type, the
 * library's own streams left out.
 */
@PostgresTest
class HostMetersTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @SchemaVersion(1)
    public record Order(int n) {
    }

    private record Recorded(String what, String stream, String group, long count, String errorType) {
    }

    private final List<Recorded> recorded = new CopyOnWriteArrayList<>();
    private final List<GroupGaugeReading> observed = new CopyOnWriteArrayList<>();

    private final MessagingMeters meters = new MessagingMeters() {
        @Override
        public void sent(String stream, long messages) {
            recorded.add(new Recorded("sent", stream, null, messages, null));
        }

        @Override
        public void consumed(String stream, String group) {
            recorded.add(new Recorded("consumed", stream, group, 1, null));
        }

        @Override
        public void processed(String stream, String group, Duration took, String errorType) {
            assertThat(took).isPositive();
            recorded.add(new Recorded("processed", stream, group, 1, errorType));
        }

        @Override
        public GroupObservation observe(GroupGaugeReading gauges) {
            observed.add(gauges);
            return () -> observed.remove(gauges);
        }
    };

    @Test
    void sendsAndRunsAreMeasuredWithoutOpenTelemetry(TestDatabase database) {
        ClientConfig config = ClientConfig.builder().schema(database.schema()).logger(new RecordingLogger()).build();
        assertThat(Telemetry.of(config, MessagingMeters.NONE, null)).isSameAs(Telemetry.OFF);
        try (EngineClient client = EngineClient.create(database.dataSource(), config, EngineEnvironment.standalone(),
                meters)) {
            StreamHandle<Order> stream = client.stream("orders.metered", Order.class);
            stream.register();
            try (Producer<Order> producer = stream.producer().register()) {
                ProduceOptions once = ProduceOptions.builder().idempotencyKey("order-1").build();
                producer.produce(new Order(1), once);
                producer.produce(new Order(1), once);
                producer.produce(new Order(2));
            }
            try (ConsumerSession session = stream.consumer("billing").register(ConsumerConfig.builder()
                    .exceptionInitialBackoff(Duration.ofMillis(10)).build()).start(order -> {
                        if (order.n() == 2 && MessageMeta.current().attempt() == 1) {
                            throw new IllegalStateException("gateway timeout");
                        }
                    }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build())) {
                await().atMost(WAIT).until(() -> recorded.stream().filter(r -> r.what().equals("processed"))
                        .count() == 3);
            }
        }

        assertThat(recorded).allSatisfy(r -> assertThat(r.stream()).isEqualTo("orders.metered"));
        assertThat(recorded).filteredOn(r -> r.what().equals("sent")).extracting(Recorded::count)
                .as("the duplicate of an idempotency key is not sent").containsExactly(1L, 1L);
        assertThat(recorded).filteredOn(r -> r.what().equals("consumed")).hasSize(3)
                .allSatisfy(r -> assertThat(r.group()).isEqualTo("billing"));
        assertThat(recorded).filteredOn(r -> r.what().equals("processed")).extracting(Recorded::errorType)
                .containsExactlyInAnyOrder(null, "java.lang.IllegalStateException", null);
    }

    @Test
    void aGroupsGaugesAreHandedToTheHostOnceWhileItsSessionsRun(TestDatabase database) {
        ClientConfig config = ClientConfig.builder().schema(database.schema()).logger(new RecordingLogger()).build();
        try (EngineClient client = EngineClient.create(database.dataSource(), config, EngineEnvironment.standalone(),
                meters)) {
            StreamHandle<Order> stream = client.stream("orders.gauged", Order.class);
            stream.register();
            long last;
            try (Producer<Order> producer = stream.producer().register()) {
                producer.produce(new Order(1));
                last = producer.produce(new Order(2)).id();
            }
            ConsumeOptions options = ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build();
            ConsumerConfig declared = ConsumerConfig.defaults();
            MessageHandler<Order> declinesTheSecond = order -> {
                if (order.n() == 2) {
                    throw Outcome.terminal("declined");
                }
            };
            ConsumerSession first = stream.consumer("billing").register(declared).start(declinesTheSecond, options);
            ConsumerSession second = stream.consumer("billing").register(declared).start(declinesTheSecond, options);
            await().atMost(WAIT).until(() -> stream.consumer("billing").inspect().committed() >= last);

            assertThat(observed).as("one observation for the two sessions of the group").singleElement()
                    .satisfies(gauges -> {
                        assertThat(gauges.stream()).isEqualTo("orders.gauged");
                        assertThat(gauges.group()).isEqualTo("billing");
                        assertThat(gauges.value("sqlstreams.consumer.instances.live")).hasValue(2.0);
                        assertThat(gauges.value("sqlstreams.consumer.exceptions.dead")).hasValue(1.0);
                        assertThat(gauges.value("sqlstreams.consumer.cursor.backlog")).hasValue(0.0);
                        assertThat(gauges.value("sqlstreams.stream.state.partitions")).as("not a group gauge")
                                .isEmpty();
                    });
            first.close();
            assertThat(observed).as("still observed while the second session runs").hasSize(1);
            second.close();
            assertThat(observed).as("taken back with the group's last session").isEmpty();
        }
    }

    @Test
    void aMetricThatThrowsChangesNoOutcomeAndIsLogged(TestDatabase database) {
        RecordingLogger logger = new RecordingLogger();
        ClientConfig config = ClientConfig.builder().schema(database.schema()).logger(logger).build();
        MessagingMeters throwing = new MessagingMeters() {
            @Override
            public void sent(String stream, long messages) {
                throw new IllegalStateException("registry closed");
            }

            @Override
            public void consumed(String stream, String group) {
                throw new IllegalStateException("registry closed");
            }

            @Override
            public void processed(String stream, String group, Duration took, String errorType) {
                throw new IllegalStateException("registry closed");
            }

            @Override
            public GroupObservation observe(GroupGaugeReading gauges) {
                throw new IllegalStateException("registry closed");
            }
        };
        try (EngineClient client = EngineClient.create(database.dataSource(), config, EngineEnvironment.standalone(),
                throwing)) {
            StreamHandle<Order> stream = client.stream("orders.throwing", Order.class);
            stream.register();
            long id;
            try (Producer<Order> producer = stream.producer().register()) {
                id = producer.produce(new Order(1)).id();
            }
            List<Integer> handled = new CopyOnWriteArrayList<>();
            try (ConsumerSession session = stream.consumer("billing").register(ConsumerConfig.defaults())
                    .start(order -> handled.add(order.n()),
                            ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build())) {
                await().atMost(WAIT).until(() -> stream.consumer("billing").inspect().committed() >= id);
            }
            assertThat(handled).as("handled once, its outcome recorded").containsExactly(1);
            assertThat(stream.consumer("billing").inspect().dead()).isZero();
        }
        assertThat(logger.withCode("SQL0154")).isNotEmpty()
                .allSatisfy(line -> assertThat(line).contains("registry closed"));
    }
}
