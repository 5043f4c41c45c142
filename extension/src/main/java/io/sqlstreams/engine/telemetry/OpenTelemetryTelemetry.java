package io.sqlstreams.engine.telemetry;

import java.util.Map;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;

/**
 * Traces through an OpenTelemetry instance: a PRODUCER span per produce call made while a span is current (any
 * other call is only counted), a CONSUMER span per handler run. The trace context travels in the message's headers
 * as W3C {@code traceparent} / {@code tracestate}, whatever propagators the instance is configured with, so a
 * consumer in another process reads it the same way. Calls only what OpenTelemetry API 1.29.0 has.
 */
final class OpenTelemetryTelemetry implements Telemetry {
    private final Tracer tracer;
    private final TextMapPropagator propagator = W3CTraceContextPropagator.getInstance();
    private final MessagingMeters meters;

    private OpenTelemetryTelemetry(Tracer tracer, MessagingMeters meters) {
        this.tracer = tracer;
        this.meters = meters;
    }

    /**
     * @param openTelemetry an {@code io.opentelemetry.api.OpenTelemetry}
     * @param hostMeters    where the metrics go; {@link MessagingMeters#NONE} for the instance's own meter
     */
    static Telemetry of(Object openTelemetry, MessagingMeters hostMeters) {
        OpenTelemetry instance = (OpenTelemetry) openTelemetry;
        return new OpenTelemetryTelemetry(instance.getTracer(MessagingConventions.INSTRUMENTATION_SCOPE),
                hostMeters == MessagingMeters.NONE ? new OpenTelemetryMeters(instance) : hostMeters);
    }

    @Override
    public SendTrace send(String stream, int messages) {
        if (!Telemetry.reported(stream)) {
            return SendTrace.NONE;
        }
        CountedSend counted = new CountedSend(meters, stream);
        return Span.current().getSpanContext().isValid()
                ? OpenTelemetrySend.start(tracer, propagator, counted, stream, messages) : counted;
    }

    @Override
    public ProcessTrace process(String stream, String group, long messageId, int attempt,
                                Map<String, String> headers) {
        if (!Telemetry.reported(stream)) {
            return ProcessTrace.NONE;
        }
        Context creation = propagator.extract(Context.root(), headers, HeaderCarrier.INSTANCE);
        var span = tracer.spanBuilder(MessagingConventions.PROCESS + " " + stream)
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute(MessagingAttributes.MESSAGING_SYSTEM, MessagingConventions.SYSTEM)
                .setAttribute(MessagingAttributes.DESTINATION_NAME, stream)
                .setAttribute(MessagingAttributes.CONSUMER_GROUP_NAME, group)
                .setAttribute(MessagingAttributes.OPERATION_NAME, MessagingConventions.PROCESS)
                .setAttribute(MessagingAttributes.OPERATION_TYPE, MessagingConventions.PROCESS)
                .setAttribute(MessagingAttributes.MESSAGE_ID, Long.toString(messageId))
                .setAttribute(MessagingAttributes.ATTEMPT, (long) attempt);
        SpanContext creationSpan = Span.fromContext(creation).getSpanContext();
        if (creationSpan.isValid()) {
            span.setParent(creation).addLink(creationSpan);
        } else {
            span.setNoParent();
        }
        MeteredProcess metered = new MeteredProcess(meters, stream, group);
        return new OpenTelemetryProcess(span.startSpan(), metered);
    }
}
