package io.sqlstreams.tck.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;

/** The receiver, fed by the OpenTelemetry SDK's own OTLP/HTTP exporter, as the servers under test export. */
class OtlpReceiverTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String SERVICE = "receiver-test";

    private OtlpReceiver receiver;
    private SdkTracerProvider tracerProvider;
    private SdkMeterProvider meterProvider;

    @BeforeEach
    void startReceiver() throws IOException {
        receiver = OtlpReceiver.start();
    }

    @AfterEach
    void stop() {
        if (tracerProvider != null) {
            tracerProvider.close();
        }
        if (meterProvider != null) {
            meterProvider.close();
        }
        receiver.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip"})
    void receivesWhatTheSdkExports(String compression) {
        Tracer tracer = tracer(compression);
        Span server = tracer.spanBuilder("POST /orders").setSpanKind(SpanKind.SERVER).startSpan();
        Span producer = tracer.spanBuilder("orders publish").setSpanKind(SpanKind.PRODUCER)
                .setParent(Context.root().with(server))
                .setAttribute("messaging.destination.name", "orders")
                .setAttribute("sqlstreams.partition", 3L)
                .setAttribute("sqlstreams.fill", 0.25)
                .setAttribute("sqlstreams.keyed", true)
                .startSpan();
        producer.addEvent("stored", Attributes.of(AttributeKey.longKey("sqlstreams.offset"), 7L));
        producer.end();
        Span consumer = tracer.spanBuilder("orders process").setSpanKind(SpanKind.CONSUMER)
                .setParent(Context.root().with(producer))
                .addLink(producer.getSpanContext())
                .startSpan();
        consumer.setStatus(StatusCode.ERROR, "declined");
        consumer.end();
        server.end();

        List<ReceivedSpan> spans = receiver.awaitSpans(received -> received.size() == 3, WAIT);

        ReceivedSpan receivedServer = named(spans, "POST /orders");
        ReceivedSpan receivedProducer = named(spans, "orders publish");
        ReceivedSpan receivedConsumer = named(spans, "orders process");
        String traceId = server.getSpanContext().getTraceId();
        assertThat(spans).extracting(ReceivedSpan::traceId).containsOnly(traceId);
        assertThat(spans).extracting(ReceivedSpan::serviceName).containsOnly(SERVICE);
        assertThat(traceId).matches("[0-9a-f]{32}");

        assertThat(receivedServer.spanId()).isEqualTo(server.getSpanContext().getSpanId()).matches("[0-9a-f]{16}");
        assertThat(receivedServer.parentSpanId()).isEmpty();
        assertThat(receivedServer.kind()).isEqualTo(ReceivedSpan.Kind.SERVER);
        assertThat(receivedServer.status()).isEqualTo(ReceivedSpan.StatusCode.UNSET);
        assertThat(receivedServer.endNanos()).isGreaterThanOrEqualTo(receivedServer.startNanos()).isPositive();

        assertThat(receivedProducer.spanId()).isEqualTo(producer.getSpanContext().getSpanId());
        assertThat(receivedProducer.parentSpanId()).isEqualTo(receivedServer.spanId());
        assertThat(receivedProducer.kind()).isEqualTo(ReceivedSpan.Kind.PRODUCER);
        assertThat(receivedProducer.attributes()).isEqualTo(Map.of("messaging.destination.name", "orders",
                "sqlstreams.partition", 3L, "sqlstreams.fill", 0.25, "sqlstreams.keyed", true));
        assertThat(receivedProducer.events())
                .containsExactly(new ReceivedSpan.Event("stored", Map.of("sqlstreams.offset", 7L)));
        assertThat(receivedProducer.links()).isEmpty();

        assertThat(receivedConsumer.spanId()).isEqualTo(consumer.getSpanContext().getSpanId());
        assertThat(receivedConsumer.parentSpanId()).isEqualTo(receivedProducer.spanId());
        assertThat(receivedConsumer.kind()).isEqualTo(ReceivedSpan.Kind.CONSUMER);
        assertThat(receivedConsumer.links())
                .containsExactly(new ReceivedSpan.Link(traceId, receivedProducer.spanId()));
        assertThat(receivedConsumer.status()).isEqualTo(ReceivedSpan.StatusCode.ERROR);
    }

    @Test
    void receivesTheMetricsTheSdkExports() {
        OtlpHttpMetricExporter exporter = OtlpHttpMetricExporter.builder().setEndpoint(receiver.metricsEndpoint())
                .build();
        meterProvider = SdkMeterProvider.builder().setResource(resource())
                .registerMetricReader(PeriodicMetricReader.builder(exporter).setInterval(Duration.ofMillis(100)).build())
                .build();
        meterProvider.get(OtlpReceiverTest.class.getName()).counterBuilder("orders.placed").build()
                .add(2, Attributes.of(AttributeKey.stringKey("orders.desk"), "north"));

        // the SDK exports metrics of its own too (otel.sdk.metric_reader.collection.duration), in no fixed order
        List<ReceivedMetricPoint> points = receiver.awaitMetricPoints(received -> received.stream()
                .anyMatch(point -> point.metric().equals("orders.placed")), WAIT);

        assertThat(points).filteredOn(point -> point.metric().equals("orders.placed")).first()
                .isEqualTo(new ReceivedMetricPoint(SERVICE, "orders.placed", Map.of("orders.desk", "north"), 2));
    }

    @Test
    void answersGarbageWith400AndKeepsReceiving() throws IOException, InterruptedException {
        HttpResponse<String> garbage = send(HttpRequest.newBuilder(URI.create(receiver.tracesEndpoint()))
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofString("this is not protobuf")));
        assertThat(garbage.statusCode()).isEqualTo(400);

        tracer("none").spanBuilder("after the garbage").startSpan().end();

        assertThat(receiver.awaitSpans(received -> !received.isEmpty(), WAIT)).singleElement()
                .extracting(ReceivedSpan::name).isEqualTo("after the garbage");
    }

    @Test
    void answersGetWith405() throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(receiver.tracesEndpoint())).GET());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("POST");
    }

    private Tracer tracer(String compression) {
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(receiver.tracesEndpoint())
                .setCompression(compression).build();
        tracerProvider = SdkTracerProvider.builder()
                .setResource(resource())
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).setScheduleDelay(Duration.ofMillis(100)).build())
                .build();
        return tracerProvider.get(OtlpReceiverTest.class.getName());
    }

    private static Resource resource() {
        return Resource.getDefault().merge(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"),
                SERVICE)));
    }

    private static ReceivedSpan named(List<ReceivedSpan> spans, String name) {
        return spans.stream().filter(span -> span.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(request.timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
    }
}
