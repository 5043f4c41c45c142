package io.sqlstreams.jakarta.telemetry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.MetricDefinition;
import io.sqlstreams.engine.telemetry.GroupGaugeReading;
import io.sqlstreams.engine.telemetry.GroupObservation;
import io.sqlstreams.engine.telemetry.MessagingConventions;
import io.sqlstreams.engine.telemetry.MessagingMeters;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.enterprise.util.AnnotationLiteral;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.annotation.RegistryType;

/**
 * The messaging metrics in the application's MicroProfile Metrics registry, under the same names as in
 * OpenTelemetry. Tag names cannot hold dots there, so each attribute's dots become underscores
 * ({@code messaging_destination_name}); the process duration is a timer. A group's gauges are registered while it
 * is observed, each read through the group's reading when the registry is scraped (NaN while unread).
 */
final class MicroProfileMeters implements MessagingMeters {
    private static final Metadata SENT = metadata(MessagingConventions.SENT_MESSAGES,
            MessagingConventions.SENT_MESSAGES_DESCRIPTION, MetricUnits.NONE);
    private static final Metadata CONSUMED = metadata(MessagingConventions.CONSUMED_MESSAGES,
            MessagingConventions.CONSUMED_MESSAGES_DESCRIPTION, MetricUnits.NONE);
    private static final Metadata DURATION = metadata(MessagingConventions.PROCESS_DURATION,
            MessagingConventions.PROCESS_DURATION_DESCRIPTION, MetricUnits.SECONDS);

    private final MetricRegistry registry;

    private MicroProfileMeters(MetricRegistry registry) {
        this.registry = registry;
    }

    static MessagingMeters fromRegistry() {
        var registry = CDI.current().select(MetricRegistry.class, new ApplicationRegistry());
        return registry.isResolvable() ? new MicroProfileMeters(registry.get()) : MessagingMeters.NONE;
    }

    @Override
    public void sent(String stream, long messages) {
        registry.counter(SENT, tags(stream, MessagingConventions.SEND, null, null)).inc(messages);
    }

    @Override
    public void consumed(String stream, String group) {
        registry.counter(CONSUMED, tags(stream, MessagingConventions.PROCESS, group, null)).inc();
    }

    @Override
    public void processed(String stream, String group, Duration took, String errorType) {
        // every series of a metric carries the same tag names there: a success's error type is empty
        registry.timer(DURATION, tags(stream, MessagingConventions.PROCESS, group, errorType == null ? "" : errorType))
                .update(took);
    }

    @Override
    public GroupObservation observe(GroupGaugeReading gauges) {
        Tag[] tags = {tag(MessagingConventions.MESSAGING_SYSTEM, MessagingConventions.SYSTEM),
                tag(MessagingConventions.DESTINATION_NAME, gauges.stream()),
                tag(MessagingConventions.CONSUMER_GROUP_NAME, gauges.group())};
        List<MetricID> registered = new ArrayList<>();
        for (MetricDefinition definition : gauges.definitions()) {
            registry.gauge(metadata(definition.name(), definition.description(),
                    "s".equals(definition.unit()) ? MetricUnits.SECONDS : MetricUnits.NONE),
                    () -> gauges.value(definition.name()).orElse(Double.NaN), tags);
            registered.add(new MetricID(definition.name(), tags));
        }
        return () -> registered.forEach(registry::remove);
    }

    private static Tag[] tags(String stream, String operation, String group, String errorType) {
        List<Tag> tags = new ArrayList<>(5);
        tags.add(tag(MessagingConventions.MESSAGING_SYSTEM, MessagingConventions.SYSTEM));
        tags.add(tag(MessagingConventions.DESTINATION_NAME, stream));
        tags.add(tag(MessagingConventions.OPERATION_NAME, operation));
        if (group != null) {
            tags.add(tag(MessagingConventions.CONSUMER_GROUP_NAME, group));
        }
        if (errorType != null) {
            tags.add(tag(MessagingConventions.ERROR_TYPE, errorType));
        }
        return tags.toArray(Tag[]::new);
    }

    private static Tag tag(String attribute, String value) {
        return new Tag(attribute.replace('.', '_'), value);
    }

    /**
     * Selects the application registry by its qualifier: Payara's producer of the unqualified registry reads its
     * injection point's annotations, and a lookup through {@code select()} has none (a NullPointerException).
     */
    @SuppressWarnings("deprecation")
    private static final class ApplicationRegistry extends AnnotationLiteral<RegistryType> implements RegistryType {
        @Override
        public MetricRegistry.Type type() {
            return MetricRegistry.Type.APPLICATION;
        }
    }

    private static Metadata metadata(String name, String description, String unit) {
        return Metadata.builder().withName(name).withDescription(description).withUnit(unit).build();
    }
}
