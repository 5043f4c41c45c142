package io.sqlstreams.engine.telemetry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.sqlstreams.ProduceResult;

/**
 * A produce call made inside a span: a PRODUCER span {@code send <stream>}, child of the current span, whose
 * context every message of the call carries in its headers. It ends when the statement returns, before the
 * caller's transaction commits.
 */
final class OpenTelemetrySend implements SendTrace {
    private final Span span;
    private final Map<String, String> traceContext;
    private final CountedSend counted;

    private OpenTelemetrySend(Span span, Map<String, String> traceContext, CountedSend counted) {
        this.span = span;
        this.traceContext = traceContext;
        this.counted = counted;
    }

    static SendTrace start(Tracer tracer, TextMapPropagator propagator, CountedSend counted, String stream,
                           int messages) {
        var builder = tracer.spanBuilder(MessagingConventions.SEND + " " + stream)
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute(MessagingAttributes.MESSAGING_SYSTEM, MessagingConventions.SYSTEM)
                .setAttribute(MessagingAttributes.DESTINATION_NAME, stream)
                .setAttribute(MessagingAttributes.OPERATION_NAME, MessagingConventions.SEND)
                .setAttribute(MessagingAttributes.OPERATION_TYPE, MessagingConventions.SEND);
        if (messages > 1) {
            builder.setAttribute(MessagingAttributes.BATCH_MESSAGE_COUNT, (long) messages);
        }
        Span span = builder.startSpan();
        Map<String, String> traceContext = new LinkedHashMap<>();
        propagator.inject(Context.current().with(span), traceContext, HeaderCarrier.INSTANCE);
        return new OpenTelemetrySend(span, traceContext, counted);
    }

    @Override
    public Map<String, String> headers(Map<String, String> own) {
        Map<String, String> headers = new LinkedHashMap<>(own);
        headers.putAll(traceContext);
        return headers;
    }

    @Override
    public void sent(List<ProduceResult> results) {
        if (results.size() == 1 && !results.get(0).duplicate()) {
            span.setAttribute(MessagingAttributes.MESSAGE_ID, Long.toString(results.get(0).id()));
        }
        counted.sent(results);
        span.end();
    }

    @Override
    public void failed(RuntimeException failure) {
        span.setAttribute(MessagingAttributes.ERROR_TYPE, failure.getClass().getName());
        span.recordException(failure);
        span.setStatus(StatusCode.ERROR, failure.getMessage());
        span.end();
    }
}
