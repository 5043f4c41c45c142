package io.sqlstreams.sample.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

class TraceReceiverTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String SPAN_ID = "b7ad6b7169203331";
    private static final String PARENT_ID = "00f067aa0ba902b7";

    private final List<SampleSpan> received = new CopyOnWriteArrayList<>();

    @Test
    void anExportedSpanReachesTheConsumerWithItsIdsKindAndAttributes() throws Exception {
        try (TraceReceiver receiver = TraceReceiver.start(received::add)) {
            int status = post(receiver, BodyPublishers.ofByteArray(export().toByteArray()));

            assertThat(status).isEqualTo(200);
            assertThat(received).containsExactly(new SampleSpan(TRACE_ID, SPAN_ID, PARENT_ID,
                    "send payments.requested", "PRODUCER",
                    Map.of("messaging.destination.name", "payments.requested", "sqlstreams.delivery.attempt", 2L)));
        }
    }

    @Test
    void aBodyThatIsNoExportIsRefusedAndHandsNothingOn() throws Exception {
        try (TraceReceiver receiver = TraceReceiver.start(received::add)) {
            assertThat(post(receiver, BodyPublishers.ofByteArray(new byte[] {(byte) 0xff, 0x01})))
                    .isEqualTo(400);
            assertThat(received).isEmpty();
        }
    }

    @Test
    void aRootSpanPrintsWithoutAParent() {
        SampleSpan root = new SampleSpan(TRACE_ID, SPAN_ID, "", "POST /api/orders", "SERVER", Map.of());

        assertThat(root.line()).contains("trace " + TRACE_ID + " span " + SPAN_ID + " parent - ");
    }

    private static int post(TraceReceiver receiver, HttpRequest.BodyPublisher body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(receiver.endpoint()))
                .header("Content-Type", "application/x-protobuf").POST(body).build();
        return HTTP.send(request, BodyHandlers.discarding()).statusCode();
    }

    private static ExportTraceServiceRequest export() {
        Span span = Span.newBuilder().setTraceId(id(TRACE_ID)).setSpanId(id(SPAN_ID)).setParentSpanId(id(PARENT_ID))
                .setName("send payments.requested").setKind(Span.SpanKind.SPAN_KIND_PRODUCER)
                .addAttributes(KeyValue.newBuilder().setKey("messaging.destination.name")
                        .setValue(AnyValue.newBuilder().setStringValue("payments.requested")))
                .addAttributes(KeyValue.newBuilder().setKey("sqlstreams.delivery.attempt")
                        .setValue(AnyValue.newBuilder().setIntValue(2)))
                .build();
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span))).build();
    }

    private static ByteString id(String hex) {
        return ByteString.copyFrom(HexFormat.of().parseHex(hex));
    }
}
