package io.sqlstreams.engine.metrics;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.sqlstreams.Measurement;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.metrics.collector.MetricsCollector;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * The series the metric listing tests read: three {@code billing.queue_depth} gauges ({job}, by queue and region)
 * observed at {@link #T0}, a {@code billing.jobs_done} counter without unit or attributes recorded twice (100 at
 * T0, 120 thirty seconds later), and one collector pass over stream {@code orders.placed} with group
 * {@code audit}.
 */
public final class BillingSeries {
    public static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");

    @SchemaVersion(1)
    public record Order(int n) {
    }

    private BillingSeries() {
    }

    /** Records the series in the test class's schema, through a client it returns. */
    public static EngineClient record(TestDatabase database) {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        client.stream("orders.placed", Order.class).register();
        client.stream("orders.placed", Order.class).consumer("audit").register();
        client.system().metrics().producer().produceBatch(List.of(
                depth(17, "invoices", "eu"), depth(3.5, "refunds", "eu"), depth(5, "invoices", "us"),
                Measurement.counter("billing.jobs_done", 100, "", Map.of()).at(T0),
                Measurement.counter("billing.jobs_done", 120, "", Map.of()).at(T0.plusSeconds(30))));
        new MetricsCollector(EngineFixtures.engine(database, new RecordingLogger())).tick();
        return client;
    }

    private static Measurement depth(double value, String queue, String region) {
        return Measurement.gauge("billing.queue_depth", value, "{job}", Map.of("queue", queue, "region", region))
                .at(T0);
    }
}
