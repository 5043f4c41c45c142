package io.sqlstreams.engine.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.MetricKind;
import io.sqlstreams.MetricScope;
import io.sqlstreams.Outcome;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.metrics.BuiltInMetrics;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * The built-in group gauges through an OpenTelemetry meter: observable gauges carrying each running group's
 * readings under the messaging attributes, gone once its session stops; a reading that fails is logged and read
 * again only when stale.
 */
@PostgresTest
class GroupGaugesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    private static final AttributeKey<String> GROUP = AttributeKey.stringKey("messaging.consumer.group.name");

    private static final List<MetricDefinition> GROUP_GAUGES = BuiltInMetrics.ofScope(MetricScope.CONSUMER_GROUP);

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @SchemaVersion(1)
    public record Order(int n) {
    }

    @Test
    void aRunningGroupsGaugesAreExportedUntilItsSessionStops(TestDatabase database) {
        try (EngineClient client = EngineClient.create(database.dataSource(), ClientConfig.builder()
                .schema(database.schema()).logger(new RecordingLogger()).openTelemetry(OTEL.getOpenTelemetry())
                .build(), EngineEnvironment.standalone())) {
            StreamHandle<Order> stream = client.stream("orders.gauged", Order.class);
            stream.register();
            long last = 0;
            try (Producer<Order> producer = stream.producer().register()) {
                for (int n = 1; n <= 10; n++) {
                    last = producer.produce(new Order(n)).id();
                }
            }
            long lastId = last;
            try (ConsumerSession session = stream.consumer("billing").register(ConsumerConfig.defaults())
                    .start(order -> {
                        if (order.n() % 5 == 0) {
                            throw Outcome.terminal("declined");
                        }
                    }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build())) {
                await().atMost(WAIT).until(() -> stream.consumer("billing").inspect().committed() >= lastId
                        && stream.consumer("billing").inspect().dead() == 2);

                Map<String, MetricData> exported = groupGauges();
                assertThat(exported.keySet()).containsExactlyInAnyOrderElementsOf(GROUP_GAUGES
                        .stream().map(MetricDefinition::name).toList());
                assertThat(value(exported, "sqlstreams.consumer.exceptions.dead")).isEqualTo(2.0);
                assertThat(value(exported, "sqlstreams.consumer.instances.live")).isEqualTo(1.0);
                assertThat(value(exported, "sqlstreams.consumer.cursor.backlog")).isZero();
                assertThat(value(exported, "sqlstreams.consumer.cursor.head")).isEqualTo(lastId);
                assertThat(exported.get("sqlstreams.consumer.exceptions.oldest_unresolved_age").getUnit())
                        .isEqualTo("s");
                assertThat(exported.get("sqlstreams.consumer.exceptions.dead").getDescription())
                        .isEqualTo(Code.SQL0088.meaning());
            }

            assertThat(groupGauges().values()).as("no group observed once its session stopped")
                    .allSatisfy(metric -> assertThat(metric.getDoubleGaugeData().getPoints()).isEmpty());
        }
    }

    @Test
    void aFailedReadingIsLoggedAndNotRepeatedUntilStale() {
        RecordingLogger logger = new RecordingLogger();
        AtomicInteger reads = new AtomicInteger();
        GroupGaugeReading reading = new GroupGaugeReading(new GroupKey("orders", "billing"), GROUP_GAUGES, () -> {
            reads.incrementAndGet();
            throw new SqlStreamsException(Code.SQL0001, "the database is unreachable");
        }, new Diagnostics(logger, Clock.systemUTC()));

        assertThat(reading.value("sqlstreams.consumer.cursor.backlog")).isEmpty();
        assertThat(reading.value("sqlstreams.consumer.exceptions.dead")).isEmpty();

        assertThat(reads).as("one read for the collection").hasValue(1);
        assertThat(logger.withCode("SQL0154")).singleElement().satisfies(line -> assertThat(line)
                .contains("consumer group billing on stream orders").contains("the database is unreachable"));
    }

    @Test
    void aReadingServesEveryGaugeOfACollectionFromOneRead() {
        AtomicInteger reads = new AtomicInteger();
        GroupGaugeReading reading = new GroupGaugeReading(new GroupKey("orders", "billing"), GROUP_GAUGES, () -> {
            reads.incrementAndGet();
            return List.of(gauge("sqlstreams.consumer.cursor.backlog", 7), gauge("sqlstreams.consumer.exceptions.dead",
                    1));
        }, new Diagnostics(new RecordingLogger(), Clock.systemUTC()));

        assertThat(reading.value("sqlstreams.consumer.cursor.backlog")).hasValue(7.0);
        assertThat(reading.value("sqlstreams.consumer.exceptions.dead")).hasValue(1.0);
        assertThat(reading.value("sqlstreams.consumer.open_leases")).isEmpty();
        assertThat(reads).hasValue(1);
    }

    private static Measurement gauge(String name, double value) {
        return new Measurement(name, MetricKind.GAUGE, value, "", Map.of(), null, null);
    }

    /** The group gauges of one collection, by name. */
    private static Map<String, MetricData> groupGauges() {
        List<String> names = GROUP_GAUGES.stream().map(MetricDefinition::name).toList();
        return OTEL.getMetrics().stream().filter(metric -> names.contains(metric.getName()))
                .collect(Collectors.toMap(MetricData::getName, metric -> metric));
    }

    private static double value(Map<String, MetricData> exported, String name) {
        List<DoublePointData> points = List.copyOf(exported.get(name).getDoubleGaugeData().getPoints());
        assertThat(points).as(name).singleElement().satisfies(point -> assertThat(point.getAttributes())
                .isEqualTo(Attributes.builder().put("messaging.system", "sqlstreams")
                        .put(DESTINATION, "orders.gauged").put(GROUP, "billing").build()));
        return points.get(0).getValue();
    }
}
