package io.sqlstreams.jakarta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.jakarta.beans.Checkout;
import io.sqlstreams.jakarta.beans.Payment;
import io.sqlstreams.jakarta.beans.PaymentObservers;
import io.sqlstreams.jakarta.beans.ServerOpenTelemetry;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * The extension hands the client the OpenTelemetry the server injects: a produce through the injected producer
 * inside a request's span and the observer's run end up in one trace; {@code sqlstreams.telemetry.enabled=false}
 * leaves them out.
 */
@PostgresTest
class ServerTelemetryTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Map<String, String> FAST_GROUP = Map.of(
            "sqlstreams.groups.\"charge-cards\".claim-poll-rate", "50ms");

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private TestDatabase database;
    private StreamHandle<Payment> stream;

    @BeforeEach
    void setUp(TestDatabase database) {
        this.database = database;
        this.stream = EngineFixtures.client(database, new RecordingLogger()).stream("payments.requested",
                Payment.class);
        stream.register();
        PaymentObservers.RUNS.clear();
        ServerOpenTelemetry.instance = OTEL.getOpenTelemetry();
    }

    @AfterEach
    void tearDown() {
        stream.destroy(DestroyOptions.forced());
    }

    @Test
    void theRequestTheSendAndTheObserversRunShareOneTrace() {
        Span request = request("order-traced", FAST_GROUP);

        SpanData send = OTEL.getSpans().stream().filter(span -> span.getKind() == SpanKind.PRODUCER).findFirst()
                .orElseThrow();
        assertThat(send.getName()).isEqualTo("send payments.requested");
        assertThat(send.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
        await().atMost(WAIT).untilAsserted(() -> assertThat(OTEL.getSpans()).filteredOn(span ->
                span.getName().equals("process payments.requested")).singleElement().satisfies(process -> {
                    assertThat(process.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
                    assertThat(process.getParentSpanId()).isEqualTo(send.getSpanId());
                    assertThat(process.getAttributes().asMap().toString())
                            .contains("messaging.consumer.group.name=charge-cards");
                }));
        assertThat(PaymentObservers.RUNS.get(0).meta().headers()).containsKey("traceparent");
    }

    @Test
    void turnedOffNothingIsTracedOrStored() {
        Map<String, String> properties = new HashMap<>(FAST_GROUP);
        properties.put("sqlstreams.telemetry.enabled", "false");

        request("order-untraced", properties);

        assertThat(OTEL.getSpans()).extracting(SpanData::getName).containsExactly("POST /checkout");
        assertThat(PaymentObservers.RUNS.get(0).meta().headers()).isEmpty();
    }

    /** Pays for {@code order} inside a SERVER span, as a request would, and waits for the observer's run. */
    private Span request(String order, Map<String, String> properties) {
        Span request = OTEL.getOpenTelemetry().getTracer("test").spanBuilder("POST /checkout")
                .setSpanKind(SpanKind.SERVER).startSpan();
        try (CdiContainer container = CdiContainer.start(database, properties, Checkout.class,
                PaymentObservers.class, ServerOpenTelemetry.class)) {
            try (Scope scope = request.makeCurrent()) {
                container.select(Checkout.class).pay(order);
            } finally {
                request.end();
            }
            await().atMost(WAIT).until(() -> PaymentObservers.RUNS.size() == 1);
        }
        return request;
    }
}
