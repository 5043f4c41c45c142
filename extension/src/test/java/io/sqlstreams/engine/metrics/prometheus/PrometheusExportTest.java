package io.sqlstreams.engine.metrics.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.LabelPair;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.Metric;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.MetricFamily;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.MetricType;
import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.MetricListing;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.metrics.collector.MetricsCollector;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * Digest §7.5: the Prometheus endpoint over user measurements and one collector pass, scraped over HTTP and read
 * back with the Prometheus library's own protobuf classes and with a strict reader of the text format.
 */
@PostgresTest
class PrometheusExportTest {
    private static final String PROTOBUF = "application/vnd.google.protobuf;"
            + "proto=io.prometheus.client.MetricFamily;encoding=delimited";
    private static final String ROUTE = "/pay \"v2\" \\ok";
    /**
     * billing.mixed 2, billing.wait 2, shipping.queue_depth 1, shipping_queue_depth 1, sqlstreams_jobs 1,
     * sqlstreams_consumer_open_leases 1
     */
    private static final int REJECTED_SERIES = 8;

    private static EngineClient client;

    private final HttpClient http = HttpClient.newHttpClient();
    private RecordingLogger logger;
    private PrometheusEndpoint endpoint;

    @SchemaVersion(1)
    public record Order(int n) {
    }

    @BeforeAll
    static void recordSeries(TestDatabase database) {
        client = EngineFixtures.client(database, new RecordingLogger());
        client.stream("orders.placed", Order.class).register();
        client.stream("orders.placed", Order.class).consumer("audit").register();
        client.system().metrics().producer().produceBatch(List.of(
                Measurement.gauge("billing.queue_depth", 17, "{job}", Map.of("queue", "invoices", "region", "eu")),
                Measurement.gauge("billing.queue_depth", 3.5, "{job}", Map.of("queue", "refunds", "region", "eu")),
                Measurement.gauge("billing.request_latency", 12.5, "ms", Map.of("route", ROUTE)),
                Measurement.counter("billing.jobs_done", 100, "", Map.of()),
                Measurement.counter("billing.busy_time", 42, "s", Map.of("worker", "a")),
                Measurement.gauge("billing.mixed", 1, "{job}", Map.of("shard", "1")),
                Measurement.counter("billing.mixed", 2, "{job}", Map.of("shard", "2")),
                Measurement.gauge("billing.wait", 1, "ms", Map.of("step", "1")),
                Measurement.gauge("billing.wait", 2, "{job}", Map.of("step", "2")),
                Measurement.gauge("shipping.queue_depth", 4, "", Map.of()),
                Measurement.gauge("shipping_queue_depth", 5, "", Map.of()),
                Measurement.gauge("sqlstreams_jobs", 6, "", Map.of()),
                Measurement.gauge("sqlstreams_consumer_open_leases", 7, "", Map.of())));
        client.system().metrics().producer().produce(Measurement.counter("billing.jobs_done", 120, "", Map.of()));
        new MetricsCollector(EngineFixtures.engine(database, new RecordingLogger())).tick();
    }

    @BeforeEach
    void listen() throws IOException {
        logger = new RecordingLogger();
        endpoint = start(() -> client.system().metrics().latest(MetricFilter.all()));
    }

    @AfterEach
    void stop() {
        endpoint.close();
    }

    @Test
    void theProtobufScrapeCarriesGaugesAndCountersWithTranslatedNamesUnitsAndLabels() throws Exception {
        Map<String, MetricFamily> families = protobufScrape(endpoint);

        MetricFamily depth = families.get("billing_queue_depth");
        assertThat(depth.getType()).isEqualTo(MetricType.GAUGE);
        assertThat(depth.getHelp()).isEqualTo("billing.queue_depth");
        assertThat(values(depth)).containsExactly(
                Map.entry(Map.of("queue", "invoices", "region", "eu"), 17.0),
                Map.entry(Map.of("queue", "refunds", "region", "eu"), 3.5));
        MetricFamily latency = families.get("billing_request_latency_seconds");
        assertThat(latency.getType()).isEqualTo(MetricType.GAUGE);
        assertThat(values(latency)).as("recorded in ms").containsExactly(Map.entry(Map.of("route", ROUTE), 0.0125));

        MetricFamily jobs = families.get("billing_jobs_done_total");
        assertThat(jobs.getType()).isEqualTo(MetricType.COUNTER);
        assertThat(values(jobs)).as("the newest stored total").containsExactly(Map.entry(Map.of(), 120.0));
        assertThat(jobs.getMetric(0).getCounter().hasCreatedTimestamp()).as("no invented start").isFalse();
        MetricFamily busy = families.get("billing_busy_time_seconds_total");
        assertThat(busy.getType()).isEqualTo(MetricType.COUNTER);
        assertThat(values(busy)).containsExactly(Map.entry(Map.of("worker", "a"), 42.0));

        MetricFamily head = families.get("sqlstreams_consumer_cursor_head");
        assertThat(head.getType()).isEqualTo(MetricType.GAUGE);
        assertThat(head.getHelp()).isEqualTo(Code.SQL0080.meaning());
        assertThat(values(head)).containsEntry(Map.of("stream", "orders.placed", "group", "audit"), 0.0);
        assertThat(families).containsKey("sqlstreams_metrics_collector_completed_timestamp_seconds");
        assertThat(families.values()).allSatisfy(family ->
                assertThat(family.getType()).isIn(MetricType.GAUGE, MetricType.COUNTER));
    }

    @Test
    void aConflictingFamilyIsRejectedAloneAndLoggedOnceWhileTheHealthGaugesCountItsSeries() throws Exception {
        Map<String, MetricFamily> families = protobufScrape(endpoint);
        protobufScrape(endpoint);

        assertThat(families.keySet()).noneMatch(name -> name.startsWith("billing_mixed")
                || name.startsWith("billing_wait") || name.startsWith("shipping") || name.startsWith("sqlstreams_jobs"));
        assertThat(families).containsKeys("billing_queue_depth", "billing_jobs_done_total");
        assertThat(values(families.get("sqlstreams_consumer_open_leases"))).as("the built-in family stays")
                .containsExactly(Map.entry(Map.of("stream", "orders.placed", "group", "audit"), 0.0));
        assertThat(values(families.get("sqlstreams_otel_source_read_success")))
                .containsExactly(Map.entry(Map.of(), 1.0));
        assertThat(values(families.get("sqlstreams_otel_measurements_rejected")))
                .containsExactly(Map.entry(Map.of(), (double) REJECTED_SERIES));
        List<String> rejected = logger.withCode("SQL0104");
        assertThat(rejected).as("one line per family over two scrapes").hasSize(6);
        assertThat(rejected).anySatisfy(line -> assertThat(line).startsWith("SQL0104 metric family \"billing.mixed\"")
                .contains("kind: counter, gauge").contains("its 2 series"));
        assertThat(rejected).anySatisfy(line -> assertThat(line).startsWith("SQL0104 metric family \"billing.wait\"")
                .contains("unit: \"ms\", \"{job}\""));
        assertThat(rejected).anySatisfy(line -> assertThat(line)
                .startsWith("SQL0104 metric family \"shipping.queue_depth\"")
                .contains("translated name shipping_queue_depth is also that of shipping_queue_depth"));
        assertThat(rejected).anySatisfy(line -> assertThat(line)
                .startsWith("SQL0104 metric family \"shipping_queue_depth\"")
                .contains("is also that of shipping.queue_depth"));
        assertThat(rejected).anySatisfy(line -> assertThat(line).startsWith("SQL0104 metric family \"sqlstreams_jobs\"")
                .contains("reserved sqlstreams_ namespace"));
        assertThat(rejected).anySatisfy(line -> assertThat(line)
                .startsWith("SQL0104 metric family \"sqlstreams_consumer_open_leases\"")
                .contains("reserved sqlstreams_ namespace"));
    }

    @Test
    void theTextScrapeKeepsToTheGrammarAndSaysWhatTheProtobufScrapeSays() throws Exception {
        HttpResponse<String> response = http.send(request(endpoint, "/metrics").header("Accept", "text/plain")
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        TextExposition.Parsed text = TextExposition.parse(response.body());
        assertThat(text.types()).containsEntry("billing_queue_depth", "gauge")
                .containsEntry("billing_jobs_done_total", "counter")
                .containsEntry("billing_busy_time_seconds_total", "counter")
                .containsEntry("billing_request_latency_seconds", "gauge")
                .doesNotContainKeys("billing_mixed", "billing_wait", "shipping_queue_depth", "sqlstreams_jobs");
        assertThat(text.samples())
                .containsEntry(TextExposition.key("billing_queue_depth", "queue", "invoices", "region", "eu"), 17.0)
                .containsEntry(TextExposition.key("billing_request_latency_seconds", "route", ROUTE), 0.0125)
                .containsEntry(TextExposition.key("billing_jobs_done_total"), 120.0)
                .containsEntry(TextExposition.key("billing_busy_time_seconds_total", "worker", "a"), 42.0)
                .containsEntry(TextExposition.key("sqlstreams_otel_measurements_rejected"), (double) REJECTED_SERIES);
        int protobufSamples = protobufScrape(endpoint).values().stream().mapToInt(MetricFamily::getMetricCount).sum();
        assertThat(text.samples()).hasSize(protobufSamples);
    }

    @Test
    void aFailedReadExportsOnlyReadSuccessZero() throws Exception {
        endpoint.close();
        endpoint = start(() -> {
            throw new SqlStreamsException(Code.SQL0110, "PostgreSQL is down");
        });

        Map<String, MetricFamily> families = protobufScrape(endpoint);

        assertThat(families.keySet()).containsExactly("sqlstreams_otel_source_read_success");
        assertThat(logger.lines()).extracting(RecordingLogger.Line::text)
                .containsExactly("SQL0110 the metrics endpoint could not read the retained measurements; this scrape"
                        + " exports read_success 0: SQL0110 PostgreSQL is down");
        assertThat(values(families.get("sqlstreams_otel_source_read_success")))
                .containsExactly(Map.entry(Map.of(), 0.0));
    }

    @Test
    void aScrapeThatBreaksAnswers500WithTheReason() throws Exception {
        endpoint.close();
        endpoint = start(() -> {
            throw new IllegalStateException("no JSON-B provider");
        });

        HttpResponse<String> response = http.send(request(endpoint, "/metrics").build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).isEqualTo("java.lang.IllegalStateException: no JSON-B provider");
    }

    @Test
    void onlyGetAndHeadOfMetricsAreServed() throws Exception {
        assertThat(http.send(request(endpoint, "/other").build(), HttpResponse.BodyHandlers.discarding())
                .statusCode()).isEqualTo(404);
        assertThat(http.send(request(endpoint, "/metrics").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(405);
        HttpResponse<String> head = http.send(request(endpoint, "/metrics")
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
    }

    private PrometheusEndpoint start(Supplier<MetricListing> source) throws IOException {
        return PrometheusEndpoint.start(new InetSocketAddress("127.0.0.1", 0), source,
                new Diagnostics(logger, Clock.systemUTC()));
    }

    private static HttpRequest.Builder request(PrometheusEndpoint endpoint, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.address().getPort() + path));
    }

    /** One scrape in the protobuf format, parsed by the Prometheus library's generated classes. */
    private Map<String, MetricFamily> protobufScrape(PrometheusEndpoint endpoint) throws Exception {
        HttpResponse<InputStream> response = http.send(request(endpoint, "/metrics").header("Accept", PROTOBUF)
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).get().asString()
                .startsWith("application/vnd.google.protobuf");
        Map<String, MetricFamily> families = new LinkedHashMap<>();
        try (InputStream body = response.body()) {
            for (MetricFamily family = MetricFamily.parseDelimitedFrom(body); family != null;
                 family = MetricFamily.parseDelimitedFrom(body)) {
                assertThat(families.put(family.getName(), family)).as("family %s twice", family.getName()).isNull();
            }
        }
        return families;
    }

    /** Each sample's labels and value, in the order exported. */
    private static Map<Map<String, String>, Double> values(MetricFamily family) {
        Map<Map<String, String>, Double> values = new LinkedHashMap<>();
        for (Metric metric : family.getMetricList()) {
            Map<String, String> labels = new TreeMap<>();
            for (LabelPair label : metric.getLabelList()) {
                labels.put(label.getName(), label.getValue());
            }
            values.put(labels, family.getType() == MetricType.COUNTER ? metric.getCounter().getValue()
                    : metric.getGauge().getValue());
        }
        return values;
    }
}
