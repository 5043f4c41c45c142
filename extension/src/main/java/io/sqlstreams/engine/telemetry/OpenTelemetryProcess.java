package io.sqlstreams.engine.telemetry;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;

/**
 * One handler run: a CONSUMER span {@code process <stream>} whose parent is the send that created the message
 * (read from its headers, so the trace continues across processes and hours) and which links to it as the
 * conventions ask; a root span when the message carries no trace context. Its end records the outcome as an
 * event, an error status for a failed run, and the run's duration.
 */
final class OpenTelemetryProcess implements ProcessTrace {
    private final Span span;
    private final DoubleHistogram duration;
    private final Attributes attributes;
    private final long startedNanos = System.nanoTime();

    OpenTelemetryProcess(Span span, DoubleHistogram duration, Attributes attributes) {
        this.span = span;
        this.duration = duration;
        this.attributes = attributes;
    }

    @Override
    public Current makeCurrent() {
        Scope scope = span.makeCurrent();
        return scope::close;
    }

    @Override
    public void ended(RunEnd end, Throwable failure) {
        Attributes measured = attributes;
        if (failure != null && end.failed()) {
            String type = failure.getClass().getName();
            span.setAttribute(MessagingConventions.ERROR_TYPE, type);
            span.recordException(failure);
            measured = attributes.toBuilder().put(MessagingConventions.ERROR_TYPE, type).build();
        }
        if (end.failed()) {
            span.setStatus(StatusCode.ERROR, end.wireName());
        }
        span.addEvent(MessagingConventions.OUTCOME_EVENT, Attributes.of(MessagingConventions.OUTCOME, end.wireName()));
        span.end();
        duration.record((System.nanoTime() - startedNanos) / 1e9, measured);
    }
}
