package io.sqlstreams.engine.telemetry;

import java.util.Map;

import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;

/** Message headers as the carrier the W3C trace-context propagator writes to and reads from. */
enum HeaderCarrier implements TextMapGetter<Map<String, String>>, TextMapSetter<Map<String, String>> {
    INSTANCE;

    @Override
    public Iterable<String> keys(Map<String, String> headers) {
        return headers.keySet();
    }

    @Override
    public String get(Map<String, String> headers, String name) {
        return headers == null ? null : headers.get(name);
    }

    @Override
    public void set(Map<String, String> headers, String name, String value) {
        headers.put(name, value);
    }
}
