package io.sqlstreams.sample.run;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The MicroProfile Config that turns the sample's OpenTelemetry SDK on (both servers leave it off) and exports its
 * spans, and nothing else, to a {@link TraceReceiver}. The launcher hands it to the server, not to the WAR: Liberty
 * as {@code <variable>} elements, Payara Micro as system properties.
 */
final class TraceExport {
    static final String SERVICE = "sqlstreams-sample";

    private TraceExport() {
    }

    static Map<String, String> config(String tracesEndpoint) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("otel.sdk.disabled", "false");
        config.put("otel.service.name", SERVICE);
        config.put("otel.traces.exporter", "otlp");
        config.put("otel.exporter.otlp.protocol", "http/protobuf");
        config.put("otel.exporter.otlp.traces.endpoint", tracesEndpoint);
        // a span is printed a moment after it ends, not after the default 5 s
        config.put("otel.bsp.schedule.delay", "500");
        config.put("otel.metrics.exporter", "none");
        config.put("otel.logs.exporter", "none");
        return config;
    }
}
