package io.sqlstreams.engine.telemetry;

import static io.sqlstreams.engine.telemetry.MessagingConventions.CONSUMER_GROUP_NAME;
import static io.sqlstreams.engine.telemetry.MessagingConventions.DESTINATION_NAME;
import static io.sqlstreams.engine.telemetry.MessagingConventions.MESSAGING_SYSTEM;
import static io.sqlstreams.engine.telemetry.MessagingConventions.OPERATION_NAME;
import static io.sqlstreams.engine.telemetry.MessagingConventions.OPERATION_TYPE;

import java.util.Map;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.sqlstreams.engine.Names;

/**
 * Telemetry through an OpenTelemetry instance: a PRODUCER span per produce call made while a span is current, a
 * CONSUMER span per handler run, and the messaging metrics. The trace context travels in the message's headers as
 * W3C {@code traceparent} / {@code tracestate}, whatever propagators the instance is configured with, so a consumer
 * in another process reads it the same way. The library's own {@code __system.*} streams are left out. Calls only
 * what OpenTelemetry API 1.29.0 has.
 */
final class OpenTelemetryTelemetry implements Telemetry {
    private final Tracer tracer;
    private final TextMapPropagator propagator = W3CTraceContextPropagator.getInstance();
    private final LongCounter sent;
    private final LongCounter consumed;
    private final DoubleHistogram processDuration;

    private OpenTelemetryTelemetry(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer(MessagingConventions.INSTRUMENTATION_SCOPE);
        Meter meter = openTelemetry.getMeter(MessagingConventions.INSTRUMENTATION_SCOPE);
        this.sent = meter.counterBuilder(MessagingConventions.SENT_MESSAGES).setUnit("{message}")
                .setDescription("Messages produced to a stream (duplicates of an idempotency key not counted).")
                .build();
        this.consumed = meter.counterBuilder(MessagingConventions.CONSUMED_MESSAGES).setUnit("{message}")
                .setDescription("Handler runs started for a consumer group's deliveries.").build();
        this.processDuration = meter.histogramBuilder(MessagingConventions.PROCESS_DURATION).setUnit("s")
                .setDescription("How long handler runs took, whatever their outcome.").build();
    }

    /**
     * @param openTelemetry an {@code io.opentelemetry.api.OpenTelemetry}
     */
    static Telemetry of(Object openTelemetry) {
        return new OpenTelemetryTelemetry((OpenTelemetry) openTelemetry);
    }

    @Override
    public SendTrace send(String stream, int messages) {
        if (stream.startsWith(Names.SYSTEM_PREFIX)) {
            return SendTrace.NONE;
        }
        Attributes attributes = Attributes.of(MESSAGING_SYSTEM, MessagingConventions.SYSTEM, DESTINATION_NAME, stream,
                OPERATION_NAME, MessagingConventions.SEND);
        if (!Span.current().getSpanContext().isValid()) {
            return new CountedSend(sent, attributes);
        }
        return OpenTelemetrySend.start(tracer, propagator, sent, attributes, stream, messages);
    }

    @Override
    public ProcessTrace process(String stream, String group, long messageId, int attempt,
                                Map<String, String> headers) {
        if (stream.startsWith(Names.SYSTEM_PREFIX)) {
            return ProcessTrace.NONE;
        }
        Attributes attributes = Attributes.builder()
                .put(MESSAGING_SYSTEM, MessagingConventions.SYSTEM)
                .put(DESTINATION_NAME, stream)
                .put(CONSUMER_GROUP_NAME, group)
                .put(OPERATION_NAME, MessagingConventions.PROCESS)
                .build();
        consumed.add(1, attributes);
        Context creation = propagator.extract(Context.root(), headers, HeaderCarrier.INSTANCE);
        var span = tracer.spanBuilder(MessagingConventions.PROCESS + " " + stream)
                .setSpanKind(SpanKind.CONSUMER)
                .setAllAttributes(withOperationType(attributes, MessagingConventions.PROCESS))
                .setAttribute(MessagingConventions.MESSAGE_ID, Long.toString(messageId))
                .setAttribute(MessagingConventions.ATTEMPT, (long) attempt);
        SpanContext creationSpan = Span.fromContext(creation).getSpanContext();
        if (creationSpan.isValid()) {
            span.setParent(creation).addLink(creationSpan);
        } else {
            span.setNoParent();
        }
        return new OpenTelemetryProcess(span.startSpan(), processDuration, attributes);
    }

    static Attributes withOperationType(Attributes attributes, String type) {
        return attributes.toBuilder().put(OPERATION_TYPE, type).build();
    }
}
