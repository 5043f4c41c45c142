package io.sqlstreams.tck.telemetry;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import com.google.protobuf.ByteString;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;

/** Turns an OTLP {@code ExportTraceServiceRequest} into {@link ReceivedSpan}s. */
final class TraceRequestDecoder {
    private static final HexFormat HEX = HexFormat.of();

    private TraceRequestDecoder() {
    }

    /** @throws IllegalArgumentException for a value the receiver does not model, e.g. a bytes attribute */
    static List<ReceivedSpan> spans(ExportTraceServiceRequest request) {
        List<ReceivedSpan> spans = new ArrayList<>();
        for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
            String serviceName = OtlpAttributes.serviceName(resourceSpans.getResource());
            resourceSpans.getScopeSpansList().forEach(scopeSpans -> scopeSpans.getSpansList()
                    .forEach(span -> spans.add(span(serviceName, span))));
        }
        return spans;
    }

    private static ReceivedSpan span(String serviceName, Span span) {
        List<ReceivedSpan.Event> events = span.getEventsList().stream()
                .map(event -> new ReceivedSpan.Event(event.getName(), OtlpAttributes.of(event.getAttributesList())))
                .toList();
        List<ReceivedSpan.Link> links = span.getLinksList().stream()
                .map(link -> new ReceivedSpan.Link(hex(link.getTraceId()), hex(link.getSpanId())))
                .toList();
        return new ReceivedSpan(serviceName, hex(span.getTraceId()), hex(span.getSpanId()),
                hex(span.getParentSpanId()), span.getName(), kind(span.getKind()),
                OtlpAttributes.of(span.getAttributesList()), events, links, status(span.getStatus().getCode()),
                span.getStartTimeUnixNano(), span.getEndTimeUnixNano());
    }

    private static String hex(ByteString id) {
        return HEX.formatHex(id.toByteArray());
    }

    private static ReceivedSpan.Kind kind(Span.SpanKind kind) {
        return switch (kind) {
            case SPAN_KIND_UNSPECIFIED -> ReceivedSpan.Kind.UNSPECIFIED;
            case SPAN_KIND_INTERNAL -> ReceivedSpan.Kind.INTERNAL;
            case SPAN_KIND_SERVER -> ReceivedSpan.Kind.SERVER;
            case SPAN_KIND_CLIENT -> ReceivedSpan.Kind.CLIENT;
            case SPAN_KIND_PRODUCER -> ReceivedSpan.Kind.PRODUCER;
            case SPAN_KIND_CONSUMER -> ReceivedSpan.Kind.CONSUMER;
            case UNRECOGNIZED -> throw new IllegalArgumentException("unknown span kind " + kind);
        };
    }

    private static ReceivedSpan.StatusCode status(Status.StatusCode code) {
        return switch (code) {
            case STATUS_CODE_UNSET -> ReceivedSpan.StatusCode.UNSET;
            case STATUS_CODE_OK -> ReceivedSpan.StatusCode.OK;
            case STATUS_CODE_ERROR -> ReceivedSpan.StatusCode.ERROR;
            case UNRECOGNIZED -> throw new IllegalArgumentException("unknown status code " + code);
        };
    }
}
