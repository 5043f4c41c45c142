package io.sqlstreams.engine.telemetry;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.engine.Diagnostics;

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
    private final ObservedGroups observed;
    private final Map<GroupKey, ProcessSpans> processSpans = new ConcurrentHashMap<>();

    private OpenTelemetryTelemetry(Tracer tracer, MessagingMeters meters, Diagnostics diagnostics) {
        this.tracer = tracer;
        this.meters = meters;
        this.observed = new ObservedGroups(meters, diagnostics);
    }

    /**
     * @param openTelemetry an {@code io.opentelemetry.api.OpenTelemetry}
     * @param hostMeters    where the metrics go; {@link MessagingMeters#NONE} for the instance's own meter
     * @param diagnostics   where a failed reading of a group's gauges is logged
     */
    static Telemetry of(Object openTelemetry, MessagingMeters hostMeters, Diagnostics diagnostics) {
        OpenTelemetry instance = (OpenTelemetry) openTelemetry;
        return new OpenTelemetryTelemetry(instance.getTracer(MessagingConventions.INSTRUMENTATION_SCOPE),
                hostMeters == MessagingMeters.NONE ? new OpenTelemetryMeters(instance) : hostMeters, diagnostics);
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
        ProcessSpans spans = processSpans.computeIfAbsent(new GroupKey(stream, group), ProcessSpans::of);
        var span = tracer.spanBuilder(spans.name())
                .setSpanKind(SpanKind.CONSUMER)
                .setAllAttributes(spans.attributes())
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

    @Override
    public GroupObservation observe(String stream, String group, List<MetricDefinition> gauges,
                                    Supplier<List<Measurement>> read) {
        return Telemetry.reported(stream) ? observed.observe(stream, group, gauges, read) : GroupObservation.NONE;
    }

    /** What every process span of a group shares: its name and the group's attributes. */
    private record ProcessSpans(String name, Attributes attributes) {
        static ProcessSpans of(GroupKey group) {
            return new ProcessSpans(MessagingConventions.PROCESS + " " + group.stream(), Attributes.builder()
                    .put(MessagingAttributes.MESSAGING_SYSTEM, MessagingConventions.SYSTEM)
                    .put(MessagingAttributes.DESTINATION_NAME, group.stream())
                    .put(MessagingAttributes.CONSUMER_GROUP_NAME, group.group())
                    .put(MessagingAttributes.OPERATION_NAME, MessagingConventions.PROCESS)
                    .put(MessagingAttributes.OPERATION_TYPE, MessagingConventions.PROCESS)
                    .build());
        }
    }
}
