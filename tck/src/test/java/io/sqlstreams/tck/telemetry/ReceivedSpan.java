package io.sqlstreams.tck.telemetry;

import java.util.List;
import java.util.Map;

/**
 * One span as a server exported it over OTLP. Ids are lowercase hex: 32 digits for a trace, 16 for a span;
 * {@code parentSpanId} is empty for a root span. Attribute values are {@link String}, {@link Long}, {@link Double},
 * {@link Boolean} or a {@link List} of those.
 */
public record ReceivedSpan(String serviceName, String traceId, String spanId, String parentSpanId, String name,
                           Kind kind, Map<String, Object> attributes, List<Event> events, List<Link> links,
                           StatusCode status, long startNanos, long endNanos) {

    /** OTLP's {@code SPAN_KIND_*} without the prefix. */
    public enum Kind { UNSPECIFIED, INTERNAL, SERVER, CLIENT, PRODUCER, CONSUMER }

    /** OTLP's {@code STATUS_CODE_*} without the prefix. */
    public enum StatusCode { UNSET, OK, ERROR }

    public record Event(String name, Map<String, Object> attributes) {
    }

    public record Link(String traceId, String spanId) {
    }
}
