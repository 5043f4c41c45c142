package io.sqlstreams.engine.metrics.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.metrics.BuiltInMetrics;
import io.sqlstreams.engine.metrics.collector.MetricsCollector;
import io.sqlstreams.testing.OptionalTool;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.RequiresTools;
import io.sqlstreams.testing.TestDatabase;

/**
 * Issue 45 item 10: the exposition keeps to Prometheus' naming conventions (base units such as seconds, the unit as
 * a suffix, {@code _total} on counters), as {@code promtool check metrics} judges them: it must find nothing to say,
 * neither about a real scrape of the endpoint nor about one series of every built-in metric.
 */
@PostgresTest
@RequiresTools(OptionalTool.PROMTOOL)
class PromtoolCheckTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @SchemaVersion(1)
    public record Order(int n) {
    }

    @Test
    void aScrapeOfAnInstallationWithAConsumedStreamPassesPromtool(TestDatabase database) throws Exception {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        StreamHandle<Order> stream = client.stream("orders.placed", Order.class);
        stream.register();
        try (Producer<Order> producer = stream.producer().register()) {
            producer.produceBatch(IntStream.rangeClosed(1, 10).mapToObj(n -> ProduceItem.of(new Order(n))).toList());
        }
        try (ConsumerSession session = stream.consumer("audit").register().start(order -> {
            if (order.n() == 5) {
                throw Outcome.terminal("poison");
            }
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build())) {
            await().atMost(WAIT).until(() -> stream.consumer("audit").metrics().snapshot().stream().anyMatch(
                    m -> m.name().equals("sqlstreams.consumer.cursor.committed") && m.value() == 10.0));
        }
        client.system().metrics().producer().produceBatch(List.of(
                Measurement.gauge("billing.request_latency", 12.5, "ms", Map.of("route", "/pay")),
                Measurement.gauge("billing.queue_depth", 3, "{job}", Map.of("queue", "refunds")),
                Measurement.counter("billing.jobs_done", 100, "", Map.of()),
                Measurement.counter("billing.busy_time", 42, "s", Map.of("worker", "a"))));
        new MetricsCollector(EngineFixtures.engine(database, new RecordingLogger())).tick();

        String body;
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(new InetSocketAddress("127.0.0.1", 0),
                () -> client.system().metrics().latest(MetricFilter.all()),
                new Diagnostics(new RecordingLogger(), Clock.systemUTC()))) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + endpoint.address().getPort() + PrometheusEndpoint.PATH))
                    .header("Accept", "text/plain").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            body = response.body();
        }

        assertThat(body).as("the scrape has the gauges, the counters and the user's families to check")
                .contains("sqlstreams_consumer_exceptions_oldest_unresolved_age_seconds{",
                        "sqlstreams_schedule_state_oldest_due_age_seconds ",
                        "sqlstreams_consumer_session_", "_total{", "billing_request_latency_seconds{");
        assertThat(promtool(body)).isEmpty();
    }

    @Test
    void oneSeriesOfEveryBuiltInMetricPassesPromtool() throws Exception {
        List<Measurement> everyBuiltIn = BuiltInMetrics.all().stream().map(definition -> new Measurement(
                definition.name(), definition.kind(), 1, definition.unit(), definition.attributes().stream()
                .collect(Collectors.toMap(key -> key, key -> "x")), null, null)).toList();
        FamilyTranslation.Result result = FamilyTranslation.translate(everyBuiltIn);
        assertThat(result.rejections()).isEmpty();
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(text, new MetricSnapshots(result.families()),
                EscapingScheme.UNDERSCORE_ESCAPING);

        assertThat(promtool(text.toString(StandardCharsets.UTF_8))).isEmpty();
    }

    /** What {@code promtool check metrics} says of the exposition on its standard input; it must exit 0 when silent. */
    private static String promtool(String exposition) throws IOException, InterruptedException {
        Process promtool = new ProcessBuilder(OptionalTool.PROMTOOL.path().toString(), "check", "metrics")
                .redirectErrorStream(true).start();
        try (OutputStream input = promtool.getOutputStream()) {
            input.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        String said = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(promtool.waitFor(30, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        assertThat(promtool.exitValue()).as("promtool's exit status, having said: %s", said).isZero();
        return said;
    }
}
