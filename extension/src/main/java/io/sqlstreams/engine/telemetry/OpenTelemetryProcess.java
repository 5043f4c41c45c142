package io.sqlstreams.engine.telemetry;

import java.util.EnumMap;
import java.util.Map;

import io.opentelemetry.api.common.Attributes;
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
    private static final Map<RunEnd, Attributes> OUTCOMES = outcomes();

    private final Span span;
    private final MeteredProcess metered;

    OpenTelemetryProcess(Span span, MeteredProcess metered) {
        this.span = span;
        this.metered = metered;
    }

    @Override
    public Current makeCurrent() {
        Scope scope = span.makeCurrent();
        return scope::close;
    }

    @Override
    public void ended(RunEnd end, Throwable failure) {
        if (end.failed()) {
            if (failure != null) {
                span.setAttribute(MessagingAttributes.ERROR_TYPE, failure.getClass().getName());
                span.recordException(failure);
            }
            span.setStatus(StatusCode.ERROR, end.wireName());
        }
        span.addEvent(MessagingConventions.OUTCOME_EVENT, OUTCOMES.get(end));
        span.end();
        metered.ended(end, failure);
    }

    private static Map<RunEnd, Attributes> outcomes() {
        Map<RunEnd, Attributes> outcomes = new EnumMap<>(RunEnd.class);
        for (RunEnd end : RunEnd.values()) {
            outcomes.put(end, Attributes.of(MessagingAttributes.OUTCOME, end.wireName()));
        }
        return outcomes;
    }
}
