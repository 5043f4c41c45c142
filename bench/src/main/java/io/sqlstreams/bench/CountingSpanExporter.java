package io.sqlstreams.bench;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/** A span exporter without the I/O: it counts the spans it is given, by kind. */
final class CountingSpanExporter extends CountingExporter implements SpanExporter {
    private final Map<SpanKind, LongAdder> byKind = new EnumMap<>(SpanKind.class);

    CountingSpanExporter() {
        for (SpanKind kind : SpanKind.values()) {
            byKind.put(kind, new LongAdder());
        }
    }

    long count(SpanKind kind) {
        return byKind.get(kind).sum();
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        for (SpanData span : spans) {
            byKind.get(span.getKind()).increment();
        }
        return CompletableResultCode.ofSuccess();
    }
}
