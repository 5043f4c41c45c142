package io.sqlstreams.sample.run;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;

/** The spans of one OTLP trace export, as {@link SampleSpan}s. */
final class TraceRequests {
    private static final HexFormat HEX = HexFormat.of();
    private static final String KIND_PREFIX = "SPAN_KIND_";

    private TraceRequests() {
    }

    static List<SampleSpan> spans(ExportTraceServiceRequest request) {
        return request.getResourceSpansList().stream()
                .flatMap(resource -> resource.getScopeSpansList().stream())
                .flatMap(scope -> scope.getSpansList().stream())
                .map(TraceRequests::span)
                .toList();
    }

    private static SampleSpan span(Span span) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        for (KeyValue attribute : span.getAttributesList()) {
            attributes.put(attribute.getKey(), value(attribute.getValue()));
        }
        return new SampleSpan(HEX.formatHex(span.getTraceId().toByteArray()),
                HEX.formatHex(span.getSpanId().toByteArray()), HEX.formatHex(span.getParentSpanId().toByteArray()),
                span.getName(), span.getKind().name().replace(KIND_PREFIX, ""), attributes);
    }

    /** Strings, integers, doubles and booleans as themselves; anything else as OTLP's text of it. */
    private static Object value(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case INT_VALUE -> value.getIntValue();
            case DOUBLE_VALUE -> value.getDoubleValue();
            case BOOL_VALUE -> value.getBoolValue();
            default -> value.toString().strip();
        };
    }
}
