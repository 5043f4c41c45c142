package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.orders.Order;
import io.sqlstreams.tck.telemetry.OtlpReceiver;
import io.sqlstreams.tck.telemetry.ReceivedSpan;

/**
 * With the server's MicroProfile Telemetry turned on for the application (its own OpenTelemetry SDK, configured in
 * its microprofile-config.properties), a message produced while the server handles an HTTP request, and consumed by
 * an observer, is traced from the request through the send to the process, and counted as consumed.
 */
public abstract class TelemetryScenario extends TckScenario {
    private static final String APPLICATION = "telemetry";
    private static final String SCHEMA = "tck_telemetry";
    private static final String SERVICE = "sqlstreams-tck-telemetry";
    /** OTLP/HTTP's own port: nothing else listens on it in the suite's network namespace. */
    private static final int OTLP_PORT = 4318;
    private static final String OTLP = "http://127.0.0.1:" + OTLP_PORT;
    private static final Map<String, String> OPEN_TELEMETRY = Map.of(
            "otel.sdk.disabled", "false",
            "otel.service.name", SERVICE,
            "otel.exporter.otlp.protocol", "http/protobuf",
            "otel.exporter.otlp.traces.endpoint", OTLP + "/v1/traces",
            "otel.bsp.schedule.delay", "100",
            "otel.metrics.exporter", "otlp",
            "otel.exporter.otlp.metrics.endpoint", OTLP + "/v1/metrics",
            "otel.metric.export.interval", "1000",
            "otel.logs.exporter", "none");

    private OtlpReceiver receiver;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        Map<String, String> config = new HashMap<>(OPEN_TELEMETRY);
        config.put("sqlstreams.schema", SCHEMA);
        return OrdersEndpoint.application(APPLICATION, config).addClasses(ChargeCards.class, Journal.class);
    }

    @BeforeEach
    void deploy() throws IOException, SQLException {
        execute(Order.createTable());
        paymentsWithJournal(SCHEMA);
        receiver = OtlpReceiver.start(OTLP_PORT);
        deployer.deploy(APPLICATION);
    }

    @AfterEach
    void undeploy() {
        try {
            deployer.undeploy(APPLICATION);
        } finally {
            receiver.close();
        }
    }

    @Test
    void theConsumerSpanContinuesTheTraceOfTheRequestThatProduced() throws Exception {
        assertThat(OrdersEndpoint.place(APPLICATION, "traced-order", false).statusCode()).isEqualTo(204);

        List<ReceivedSpan> spans = receiver.awaitSpans(received -> TracedDelivery.of(received).isPresent(), WAIT);

        TracedDelivery delivery = TracedDelivery.of(spans).orElseThrow();
        assertThat(delivery.descendsFromRequest()).as("the send descends from the request in %s", spans).isTrue();
        ReceivedSpan send = delivery.send();
        ReceivedSpan process = delivery.process();
        assertThat(process.serviceName()).isEqualTo(SERVICE);
        assertThat(process.parentSpanId()).isEqualTo(send.spanId());
        assertThat(process.links()).containsExactly(new ReceivedSpan.Link(send.traceId(), send.spanId()));
        String messageId = Long.toString(journalledMessageId("traced-order"));
        assertThat(send.attributes()).containsEntry("messaging.system", "sqlstreams")
                .containsEntry("messaging.destination.name", Payment.STREAM)
                .containsEntry("messaging.operation.type", "send")
                .containsEntry("messaging.message.id", messageId);
        assertThat(process.attributes()).containsEntry("messaging.system", "sqlstreams")
                .containsEntry("messaging.destination.name", Payment.STREAM)
                .containsEntry("messaging.consumer.group.name", ChargeCards.GROUP)
                .containsEntry("messaging.operation.name", "process")
                .containsEntry("messaging.operation.type", "process")
                .containsEntry("messaging.message.id", messageId)
                .containsEntry("sqlstreams.delivery.attempt", 1L);
        assertThat(process.events()).contains(
                new ReceivedSpan.Event("sqlstreams.outcome", Map.of("sqlstreams.outcome", "succeeded")));
        await("the consumed message counted for " + ChargeCards.GROUP).atMost(WAIT)
                .until(() -> countsConsumed(ChargeCards.GROUP));
    }

    @Test
    void theGroupGaugesOfTheRunningObserverAreReported() throws Exception {
        assertThat(OrdersEndpoint.place(APPLICATION, "gauged-order", false).statusCode()).isEqualTo(204);
        long messageId = await("the order's message journalled").atMost(WAIT).ignoreExceptions()
                .until(() -> journalledMessageId("gauged-order"), id -> id > 0);

        await("the gauges of " + ChargeCards.GROUP + " once its message is committed").atMost(WAIT).untilAsserted(() -> {
            assertThat(groupGauge("sqlstreams.consumer.cursor.committed", ChargeCards.GROUP).orElse(-1))
                    .isGreaterThanOrEqualTo(messageId);
            assertThat(groupGauge("sqlstreams.consumer.cursor.backlog", ChargeCards.GROUP)).hasValue(0.0);
            assertThat(groupGauge("sqlstreams.consumer.instances.live", ChargeCards.GROUP)).hasValue(1.0);
            assertThat(groupGauge("sqlstreams.consumer.exceptions.dead", ChargeCards.GROUP)).hasValue(0.0);
        });
    }

    /** Whether the server's metrics count at least one message consumed by {@code group}. */
    protected abstract boolean countsConsumed(String group) throws Exception;

    /** The newest value the server's metrics give for the built-in gauge {@code name} of {@code group}. */
    protected abstract OptionalDouble groupGauge(String name, String group) throws Exception;

    /** Where the application's OpenTelemetry exports to. */
    protected OtlpReceiver receiver() {
        return receiver;
    }

    private static long journalledMessageId(String order) throws SQLException {
        try (Connection connection = server().database().getConnection();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT message_id FROM " + SCHEMA + "." + Journal.TABLE + " WHERE payment_order = ?")) {
            query.setString(1, order);
            try (ResultSet row = query.executeQuery()) {
                assertThat(row.next()).as("the journal holds order %s", order).isTrue();
                return row.getLong(1);
            }
        }
    }

    /** The request's SERVER span and the send and process spans of its message, all of one trace. */
    private record TracedDelivery(ReceivedSpan request, ReceivedSpan send, ReceivedSpan process,
                                  Map<String, ReceivedSpan> trace) {

        static Optional<TracedDelivery> of(List<ReceivedSpan> spans) {
            Optional<ReceivedSpan> process = spans.stream()
                    .filter(span -> span.kind() == ReceivedSpan.Kind.CONSUMER
                            && span.name().equals("process " + Payment.STREAM))
                    .findFirst();
            if (process.isEmpty()) {
                return Optional.empty();
            }
            Map<String, ReceivedSpan> trace = new HashMap<>();
            spans.stream().filter(span -> span.traceId().equals(process.get().traceId()))
                    .forEach(span -> trace.put(span.spanId(), span));
            Optional<ReceivedSpan> request = kindOf(trace, ReceivedSpan.Kind.SERVER);
            Optional<ReceivedSpan> send = kindOf(trace, ReceivedSpan.Kind.PRODUCER)
                    .filter(span -> span.name().equals("send " + Payment.STREAM));
            if (request.isEmpty() || send.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new TracedDelivery(request.get(), send.get(), process.get(), trace));
        }

        private static Optional<ReceivedSpan> kindOf(Map<String, ReceivedSpan> trace, ReceivedSpan.Kind kind) {
            return trace.values().stream().filter(span -> span.kind() == kind).findFirst();
        }

        /** Whether following the send's parents through the trace reaches the request. */
        boolean descendsFromRequest() {
            ReceivedSpan ancestor = trace.get(send.parentSpanId());
            while (ancestor != null && !ancestor.equals(request)) {
                ancestor = trace.get(ancestor.parentSpanId());
            }
            return ancestor != null;
        }
    }
}
