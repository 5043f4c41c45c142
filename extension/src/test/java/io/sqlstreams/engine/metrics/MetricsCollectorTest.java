package io.sqlstreams.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Measurement;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.BackgroundManager;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.metrics.collector.MetricsCollector;
import io.sqlstreams.testing.PostgresTest;

/** Digest §7.5: the system manager's metrics_collector records every built-in series it can read. */
@PostgresTest
class MetricsCollectorTest extends EngineTestBase {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @SchemaVersion(1)
    public record Order(int n) {
    }

    @Test
    void onePassRecordsTheStreamGroupAndInstallationSeriesThenItsCompletion() {
        StreamHandle<Order> stream = client.stream("collected.orders", Order.class);
        stream.register();
        stream.consumer("lagging").register();
        try (Producer<Order> producer = stream.producer().register()) {
            producer.produceBatch(IntStream.rangeClosed(1, 30).mapToObj(n -> ProduceItem.of(new Order(n))).toList());
        }
        try (ConsumerSession session = stream.consumer("poisoned").register().start(order -> {
            if (order.n() % 10 == 0) {
                throw Outcome.terminal("every tenth is poison");
            }
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build())) {
            await().atMost(WAIT).until(() -> stream.consumer("poisoned").inspect().committed() == 30);
        }
        Instant started = Instant.now().minusSeconds(1);
        client.system().register(new SystemConfig(Duration.ofMillis(200), Duration.ofMillis(300)));

        try (BackgroundManager manager = BackgroundManager.start(client)) {
            await().atMost(WAIT).until(() -> completedAfter(started));
        }
        Map<String, Double> lagging = values(stream.consumer("lagging").metrics().latest());
        assertThat(lagging).containsEntry("sqlstreams.consumer.cursor.backlog", 30.0)
                .containsEntry("sqlstreams.consumer.cursor.committed", 0.0)
                .containsEntry("sqlstreams.consumer.exceptions.dead", 0.0);
        assertThat(values(stream.consumer("poisoned").metrics().latest()))
                .containsEntry("sqlstreams.consumer.cursor.backlog", 0.0)
                .containsEntry("sqlstreams.consumer.exceptions.dead", 3.0);
        assertThat(values(stream.metrics().latest())).containsKeys("sqlstreams.stream.state.partitions",
                "sqlstreams.stream.state.compacted", "sqlstreams.stream.workers.unclaimed");
        Measurement unclaimed = stream.metrics().latest().stream()
                .filter(measurement -> measurement.name().equals("sqlstreams.stream.workers.unclaimed")).findFirst()
                .orElseThrow();
        assertThat(unclaimed.value()).as("the stopped session's and the idle group's workers").isEqualTo(6.0);
        assertThat(unclaimed.metadata()).as("which they are, in group and worker order").isEqualTo("{\"workers\":["
                + "{\"group\":\"lagging\",\"worker\":\"cursor_advancer\"},"
                + "{\"group\":\"lagging\",\"worker\":\"exception_consumer\"},"
                + "{\"group\":\"lagging\",\"worker\":\"message_consumer\"},"
                + "{\"group\":\"poisoned\",\"worker\":\"cursor_advancer\"},"
                + "{\"group\":\"poisoned\",\"worker\":\"exception_consumer\"},"
                + "{\"group\":\"poisoned\",\"worker\":\"message_consumer\"}]}");
        assertThat(client.system().metrics().metric("sqlstreams.worker.state.unclaimed_workers", Map.of()).latest())
                .isPresent();
        assertThat(client.stream(SystemStreams.METRICS, MeasurementDocument.class).metrics().latest())
                .as("the metrics stream is measured too").isNotEmpty();
        assertThat(client.system().get().config().resolvedMetricCollectorPollRate())
                .isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void aPassCountsOverdueAndSuspendedSchedules() throws SQLException {
        StreamHandle<Order> stream = client.stream("scheduled.orders", Order.class);
        stream.register();
        String schema = database.schema();
        for (String[] schedule : List.of(new String[] {"late", "false", "10 minutes"},
                new String[] {"due-now", "false", "10 seconds"}, new String[] {"paused", "true", "1 hour"})) {
            database.execute("INSERT INTO " + schema + ".schedule_config (system_id, stream_id, name, expression,"
                    + " suspended, schema_version, timeout_ns) SELECT (SELECT id FROM " + schema + ".system_config),"
                    + " id, '" + schedule[0] + "', '* * * * *', " + schedule[1] + ", 1, 30000000000 FROM " + schema
                    + ".stream_config WHERE name = 'scheduled.orders'");
            database.execute("INSERT INTO " + schema + ".schedule_cursor (schedule_id, next_scheduled_at) SELECT id,"
                    + " now() - interval '" + schedule[2] + "' FROM " + schema + ".schedule_config WHERE name = '"
                    + schedule[0] + "'");
        }

        new MetricsCollector(EngineFixtures.engine(database, logger)).tick();

        assertThat(systemGauge("sqlstreams.schedule.state.overdue")).as("due within the producer's minute is not")
                .isEqualTo(1.0);
        assertThat(systemGauge("sqlstreams.schedule.state.oldest_due_age"))
                .as("in seconds").isBetween(600.0, 3_600.0);
        assertThat(systemGauge("sqlstreams.schedule.state.suspended")).isEqualTo(1.0);
    }

    private double systemGauge(String name) {
        return client.system().metrics().metric(name, Map.of()).latest().orElseThrow().value();
    }

    private boolean completedAfter(Instant started) {
        return client.system().metrics().metric("sqlstreams.metrics.collector.completed_timestamp", Map.of())
                .latest().filter(completed -> completed.at().isAfter(started)
                        && completed.value() >= started.getEpochSecond()).isPresent();
    }

    private static Map<String, Double> values(List<Measurement> measurements) {
        return measurements.stream().collect(Collectors.toMap(Measurement::name, Measurement::value));
    }
}
