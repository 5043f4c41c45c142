package io.sqlstreams.sample.run;

import java.util.Map;
import java.util.TreeMap;

/**
 * One span the sample's OpenTelemetry exported, as the launcher prints it.
 *
 * @param traceId      32 hex digits
 * @param spanId       16 hex digits
 * @param parentSpanId 16 hex digits, empty for a trace's root
 * @param name         such as {@code send payments.requested}
 * @param kind         OTLP's kind without its prefix: {@code SERVER}, {@code PRODUCER}, {@code CONSUMER}, …
 * @param attributes   by key, in key order; integers as {@code Long}
 */
record SampleSpan(String traceId, String spanId, String parentSpanId, String name, String kind,
                  Map<String, Object> attributes) {

    SampleSpan {
        attributes = new TreeMap<>(attributes);
    }

    boolean isRoot() {
        return parentSpanId.isEmpty();
    }

    /** One line: kind, name, trace, span and parent ids, and the attributes. */
    String line() {
        return String.format("%-8s %-26s trace %s span %s parent %-16s %s", kind, name, traceId, spanId,
                isRoot() ? "-" : parentSpanId, attributes);
    }
}
