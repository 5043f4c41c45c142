package io.sqlstreams.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.sqlstreams.engine.telemetry.MessagingConventions;

/**
 * An OpenTelemetry SDK configured as a server runs one — a batch span processor with its default queue and batch
 * sizes, a periodic metric reader, the W3C propagator — whose exporters only count what they receive.
 */
final class BenchOpenTelemetry implements AutoCloseable {
    static final Duration SPAN_EXPORT_DELAY = Duration.ofMillis(100);
    static final Duration METRIC_EXPORT_INTERVAL = Duration.ofSeconds(1);
    private static final long FLUSH_TIMEOUT_SECONDS = 30;

    private final CountingSpanExporter spans = new CountingSpanExporter();
    private final CountingMetricExporter metrics =
            new CountingMetricExporter(MessagingConventions.INSTRUMENTATION_SCOPE);
    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;

    BenchOpenTelemetry() {
        SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
                .addSpanProcessor(BatchSpanProcessor.builder(spans).setScheduleDelay(SPAN_EXPORT_DELAY).build())
                .build();
        SdkMeterProvider meterProvider = SdkMeterProvider.builder()
                .registerMetricReader(PeriodicMetricReader.builder(metrics).setInterval(METRIC_EXPORT_INTERVAL)
                        .build())
                .build();
        sdk = OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).setMeterProvider(meterProvider)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
        tracer = sdk.getTracer("io.sqlstreams.bench");
    }

    OpenTelemetry openTelemetry() {
        return sdk;
    }

    /** Each produce call inside a span of its own, as an application's request would make it. */
    ProduceCallScope requestSpans() {
        return call -> {
            Span span = tracer.spanBuilder("bench request").setSpanKind(SpanKind.SERVER).startSpan();
            try (Scope ignored = span.makeCurrent()) {
                return call.get();
            } finally {
                span.end();
            }
        };
    }

    /** Everything exported so far, once every span ended and every metric recorded is exported. */
    ExportedTelemetry exported() {
        CompletableResultCode.ofAll(List.of(sdk.getSdkTracerProvider().forceFlush(),
                sdk.getSdkMeterProvider().forceFlush())).join(FLUSH_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return new ExportedTelemetry(spans.count(SpanKind.SERVER), spans.count(SpanKind.PRODUCER),
                spans.count(SpanKind.CONSUMER), metrics.points());
    }

    @Override
    public void close() {
        sdk.close();
    }
}
