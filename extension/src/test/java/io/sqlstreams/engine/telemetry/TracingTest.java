package io.sqlstreams.engine.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * Traces and messaging metrics of a client given an OpenTelemetry SDK that records in memory: a produce inside a
 * span continues its trace into the handler's CONSUMER span, every run of a retried message has its own span with
 * its attempt and outcome, and a client without OpenTelemetry traces nothing even inside a span.
 */
@PostgresTest
class TracingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    private static final AttributeKey<String> GROUP = AttributeKey.stringKey("messaging.consumer.group.name");
    private static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    private static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("sqlstreams.delivery.attempt");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("sqlstreams.outcome");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @SchemaVersion(1)
    public record Order(int n) {
    }

    private final Map<Integer, Map<String, String>> headersSeen = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicInteger> runs = new ConcurrentHashMap<>();
    private Tracer tracer;
    private EngineClient traced;

    @BeforeEach
    void setUp(TestDatabase database) {
        tracer = OTEL.getOpenTelemetry().getTracer("test");
        traced = EngineClient.create(database.dataSource(), ClientConfig.builder().schema(database.schema())
                .allowDestroy(true).logger(new RecordingLogger()).openTelemetry(OTEL.getOpenTelemetry()).build(),
                EngineEnvironment.standalone());
    }

    @AfterEach
    void tearDown() {
        traced.close();
    }

    @Test
    void aProduceInsideASpanContinuesItsTraceIntoTheHandlersSpan() {
        StreamHandle<Order> stream = traced.stream("orders.traced", Order.class);
        stream.register();
        Span request = tracer.spanBuilder("POST /orders").setSpanKind(SpanKind.SERVER).startSpan();
        ProduceResult produced;
        try (Producer<Order> producer = stream.producer().register(); Scope scope = request.makeCurrent()) {
            produced = producer.produce(new Order(1), ProduceOptions.builder().header("tenant", "acme").build());
        } finally {
            request.end();
        }
        consume(stream, ConsumerConfig.defaults(), order -> tracer.spanBuilder("charge").startSpan().end(), 1);
        awaitProcessSpans(stream, 1);

        SpanData send = span("send orders.traced");
        assertThat(send.getKind()).isEqualTo(SpanKind.PRODUCER);
        assertThat(send.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
        assertThat(send.getAttributes().asMap()).containsEntry(AttributeKey.stringKey("messaging.system"), "sqlstreams")
                .containsEntry(DESTINATION, "orders.traced")
                .containsEntry(AttributeKey.stringKey("messaging.operation.name"), "send")
                .containsEntry(AttributeKey.stringKey("messaging.operation.type"), "send")
                .containsEntry(MESSAGE_ID, Long.toString(produced.id()));
        assertThat(headersSeen.get(1)).containsEntry("tenant", "acme").containsEntry("traceparent",
                "00-" + send.getTraceId() + "-" + send.getSpanId() + "-" + send.getSpanContext().getTraceFlags().asHex());

        SpanData process = span("process orders.traced");
        assertThat(process.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(process.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
        assertThat(process.getParentSpanId()).isEqualTo(send.getSpanId());
        assertThat(process.getLinks()).singleElement().satisfies(link -> {
            assertThat(link.getSpanContext().getTraceId()).isEqualTo(send.getTraceId());
            assertThat(link.getSpanContext().getSpanId()).isEqualTo(send.getSpanId());
            assertThat(link.getSpanContext().isRemote()).as("read back from the message's headers").isTrue();
        });
        assertThat(process.getAttributes().asMap()).containsEntry(GROUP, "billing")
                .containsEntry(MESSAGE_ID, Long.toString(produced.id())).containsEntry(ATTEMPT, 1L)
                .containsEntry(AttributeKey.stringKey("messaging.operation.type"), "process");
        assertThat(outcomes(process)).containsExactly("succeeded");
        assertThat(process.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(span("charge").getParentSpanId()).as("the handler's own span nests in the process span")
                .isEqualTo(process.getSpanId());
    }

    @Test
    void everyRunOfARetriedMessageHasItsOwnSpanWithItsAttemptAndOutcome() {
        StreamHandle<Order> stream = traced.stream("orders.retried", Order.class);
        stream.register();
        Span request = tracer.spanBuilder("POST /orders").startSpan();
        try (Producer<Order> producer = stream.producer().register(); Scope scope = request.makeCurrent()) {
            producer.produceBatch(List.of(ProduceItem.of(new Order(1)), ProduceItem.of(new Order(2))));
        } finally {
            request.end();
        }
        ConsumerConfig oneRetry = ConsumerConfig.builder().exceptionInitialBackoff(Duration.ofMillis(10))
                .message(MessageOptions.builder().retry(RetryPolicy.builder().maxRetries(1)
                        .baseDelay(Duration.ofMillis(10)).maxDelay(Duration.ofMillis(20)).build()).build())
                .build();
        consume(stream, oneRetry, order -> {
            if (order.n() == 1) {
                throw new IllegalStateException("card declined");
            }
            if (runs.get(2).get() == 1) {
                throw Outcome.delay(Duration.ofMillis(10));
            }
        }, 4);
        awaitProcessSpans(stream, 4);

        SpanData send = span("send orders.retried");
        assertThat(send.getAttributes().get(AttributeKey.longKey("messaging.batch.message_count"))).isEqualTo(2L);
        List<SpanData> processes = spans("process orders.retried");
        assertThat(processes).hasSize(4).allSatisfy(process -> {
            assertThat(process.getTraceId()).isEqualTo(send.getTraceId());
            assertThat(process.getParentSpanId()).isEqualTo(send.getSpanId());
        });
        String firstId = processes.stream().map(process -> process.getAttributes().get(MESSAGE_ID))
                .min(Comparator.comparingLong(Long::parseLong)).orElseThrow();
        List<SpanData> first = processes.stream().filter(process -> process.getAttributes().get(MESSAGE_ID)
                .equals(firstId)).sorted(Comparator.comparing(process -> process.getAttributes().get(ATTEMPT)))
                .toList();
        assertThat(first).extracting(process -> process.getAttributes().get(ATTEMPT)).containsExactly(1L, 2L);
        assertThat(first).flatExtracting(TracingTest::outcomes).containsExactly("retry", "dead_lettered");
        assertThat(first).allSatisfy(process -> {
            assertThat(process.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(process.getAttributes().get(ERROR_TYPE)).isEqualTo("java.lang.IllegalStateException");
            assertThat(process.getEvents()).extracting(EventData::getName).contains("exception");
        });
        List<SpanData> second = processes.stream().filter(process -> !first.contains(process))
                .sorted(Comparator.comparing(process -> process.getAttributes().get(ATTEMPT))).toList();
        assertThat(second).flatExtracting(TracingTest::outcomes).containsExactly("delayed", "succeeded");
        assertThat(second).allSatisfy(process ->
                assertThat(process.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET));

        assertThat(sum("messaging.client.sent.messages", "orders.retried")).isEqualTo(2);
        assertThat(sum("messaging.client.consumed.messages", "orders.retried")).isEqualTo(4);
        await().atMost(WAIT).untilAsserted(() -> assertThat(metric("messaging.process.duration").getHistogramData()
                .getPoints()).allSatisfy(point -> assertThat(point.getAttributes().get(GROUP)).isEqualTo("billing"))
                .extracting(point -> point.getCount()).containsExactlyInAnyOrder(2L, 2L));
    }

    @Test
    void aProduceOutsideAnySpanIsCountedButNotTracedAndItsRunIsARootSpan() {
        StreamHandle<Order> stream = traced.stream("orders.untraced", Order.class);
        stream.register();
        try (Producer<Order> producer = stream.producer().register()) {
            producer.produce(new Order(1));
        }
        consume(stream, ConsumerConfig.defaults(), order -> { }, 1);
        awaitProcessSpans(stream, 1);

        assertThat(spans("send orders.untraced")).isEmpty();
        assertThat(headersSeen.get(1)).isEmpty();
        assertThat(span("process orders.untraced").getParentSpanContext().isValid()).isFalse();
        assertThat(span("process orders.untraced").getLinks()).isEmpty();
        assertThat(sum("messaging.client.sent.messages", "orders.untraced")).isEqualTo(1);
    }

    @Test
    void aClientWithoutOpenTelemetryTracesNothingEvenInsideASpan(TestDatabase database) {
        try (EngineClient plain = EngineFixtures.client(database, new RecordingLogger())) {
            StreamHandle<Order> stream = plain.stream("orders.plain", Order.class);
            stream.register();
            Span request = tracer.spanBuilder("POST /orders").startSpan();
            try (Producer<Order> producer = stream.producer().register(); Scope scope = request.makeCurrent()) {
                producer.produce(new Order(1));
            } finally {
                request.end();
            }
            consume(stream, ConsumerConfig.defaults(), order -> { }, 1);
        }

        assertThat(OTEL.getSpans()).extracting(SpanData::getName).containsExactly("POST /orders");
        assertThat(headersSeen.get(1)).as("no trace context stored").isEmpty();
        assertThat(Telemetry.of(ClientConfig.defaults(), MessagingMeters.NONE, null)).isSameAs(Telemetry.OFF);
        assertThat(Telemetry.OFF.send("orders.plain", 1)).as("one shared trace, nothing allocated")
                .isSameAs(SendTrace.NONE);
        assertThat(Telemetry.OFF.process("orders.plain", "billing", 1, 1, Map.of())).isSameAs(ProcessTrace.NONE);
        assertThat(OTEL.getMetrics()).as("nothing counted").isEmpty();
    }

    private void consume(StreamHandle<Order> stream, ConsumerConfig config, Handling handling, int expectedRuns) {
        try (ConsumerSession session = stream.consumer("billing").register(config).start(order -> {
            headersSeen.put(order.n(), MessageMeta.current().headers());
            runs.computeIfAbsent(order.n(), n -> new AtomicInteger()).incrementAndGet();
            handling.handle(order);
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build())) {
            await().atMost(WAIT).until(() -> runs.values().stream().mapToInt(AtomicInteger::get).sum() >= expectedRuns);
        }
    }

    /** Runs are counted inside the handler, before their spans end. */
    private static void awaitProcessSpans(StreamHandle<Order> stream, int runs) {
        await().atMost(WAIT).until(() -> spans("process " + stream.name()).size() >= runs);
    }

    private static SpanData span(String name) {
        return spans(name).stream().reduce((one, another) -> {
            throw new AssertionError("more than one span named " + name);
        }).orElseThrow(() -> new AssertionError("no span named " + name + " among " + OTEL.getSpans()));
    }

    private static List<SpanData> spans(String name) {
        return OTEL.getSpans().stream().filter(span -> span.getName().equals(name)).toList();
    }

    private static List<String> outcomes(SpanData span) {
        return span.getEvents().stream().filter(event -> event.getName().equals("sqlstreams.outcome"))
                .map(event -> event.getAttributes().get(OUTCOME)).toList();
    }

    private static MetricData metric(String name) {
        return OTEL.getMetrics().stream().filter(metric -> metric.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name));
    }

    private static long sum(String name, String stream) {
        return metric(name).getLongSumData().getPoints().stream()
                .filter(point -> stream.equals(point.getAttributes().get(DESTINATION)))
                .mapToLong(point -> point.getValue()).sum();
    }

    @FunctionalInterface
    private interface Handling {
        void handle(Order order) throws Exception;
    }
}
