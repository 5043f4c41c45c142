package io.sqlstreams.engine.telemetry;

import static io.sqlstreams.engine.telemetry.MessagingAttributes.CONSUMER_GROUP_NAME;
import static io.sqlstreams.engine.telemetry.MessagingAttributes.DESTINATION_NAME;
import static io.sqlstreams.engine.telemetry.MessagingAttributes.ERROR_TYPE;
import static io.sqlstreams.engine.telemetry.MessagingAttributes.MESSAGING_SYSTEM;
import static io.sqlstreams.engine.telemetry.MessagingAttributes.OPERATION_NAME;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.sqlstreams.MetricDefinition;

/**
 * The messaging metrics through an OpenTelemetry meter; each stream's and group's attributes are built once. The
 * group gauges are observable gauges, registered with the first group observed, each reporting every group observed
 * when it is collected.
 */
final class OpenTelemetryMeters implements MessagingMeters {
    private final Meter meter;
    private final AtomicBoolean gaugesRegistered = new AtomicBoolean();
    private final LongCounter sent;
    private final LongCounter consumed;
    private final DoubleHistogram processDuration;
    private final Map<String, Attributes> sending = new ConcurrentHashMap<>();
    private final Map<GroupKey, Attributes> processing = new ConcurrentHashMap<>();
    private final Map<GroupGaugeReading, Attributes> gauged = new ConcurrentHashMap<>();

    OpenTelemetryMeters(OpenTelemetry openTelemetry) {
        this.meter = openTelemetry.getMeter(MessagingConventions.INSTRUMENTATION_SCOPE);
        this.sent = meter.counterBuilder(MessagingConventions.SENT_MESSAGES).setUnit("{message}")
                .setDescription(MessagingConventions.SENT_MESSAGES_DESCRIPTION).build();
        this.consumed = meter.counterBuilder(MessagingConventions.CONSUMED_MESSAGES).setUnit("{message}")
                .setDescription(MessagingConventions.CONSUMED_MESSAGES_DESCRIPTION).build();
        this.processDuration = meter.histogramBuilder(MessagingConventions.PROCESS_DURATION).setUnit("s")
                .setDescription(MessagingConventions.PROCESS_DURATION_DESCRIPTION).build();
    }

    @Override
    public void sent(String stream, long messages) {
        sent.add(messages, sending.computeIfAbsent(stream,
                name -> attributes(name, MessagingConventions.SEND).build()));
    }

    @Override
    public void consumed(String stream, String group) {
        consumed.add(1, processing(stream, group));
    }

    @Override
    public void processed(String stream, String group, Duration took, String errorType) {
        Attributes attributes = processing(stream, group);
        if (errorType != null) {
            attributes = attributes.toBuilder().put(ERROR_TYPE, errorType).build();
        }
        processDuration.record(took.toNanos() / 1e9, attributes);
    }

    @Override
    public GroupObservation observe(GroupGaugeReading gauges) {
        if (gaugesRegistered.compareAndSet(false, true)) {
            gauges.definitions().forEach(this::registerGauge);
        }
        gauged.put(gauges, Attributes.builder().put(MESSAGING_SYSTEM, MessagingConventions.SYSTEM)
                .put(DESTINATION_NAME, gauges.stream()).put(CONSUMER_GROUP_NAME, gauges.group()).build());
        return () -> gauged.remove(gauges);
    }

    /** An observable gauge reporting {@code definition} for every group observed when it is collected. */
    private void registerGauge(MetricDefinition definition) {
        meter.gaugeBuilder(definition.name()).setUnit(definition.unit()).setDescription(definition.description())
                .buildWithCallback(gauge -> gauged.forEach((reading, attributes) ->
                        reading.value(definition.name()).ifPresent(value -> gauge.record(value, attributes))));
    }

    private Attributes processing(String stream, String group) {
        return processing.computeIfAbsent(new GroupKey(stream, group), key -> attributes(stream,
                MessagingConventions.PROCESS).put(CONSUMER_GROUP_NAME, group).build());
    }

    private static AttributesBuilder attributes(String stream, String operation) {
        return Attributes.builder().put(MESSAGING_SYSTEM, MessagingConventions.SYSTEM).put(DESTINATION_NAME, stream)
                .put(OPERATION_NAME, operation);
    }
}
