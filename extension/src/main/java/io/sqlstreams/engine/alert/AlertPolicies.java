package io.sqlstreams.engine.alert;

import java.time.Duration;
import java.util.List;

import io.sqlstreams.CollectorProgressAlertConfig;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.StreamAlertConfig;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.codec.DocumentFields;
import io.sqlstreams.engine.codec.DurationText;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The five alert policies of a {@link SystemConfig} as the document of the system's {@code alert_checks} worker
 * row: one object per alert, holding only the fields that were set. Writing checks each schedule's duration
 * (SQL0108 naming the property).
 */
public final class AlertPolicies {
    private static final String SCHEDULE = "schedule";
    private static final String THRESHOLD = "threshold";
    private static final String PENDING_DURATION = "pending_duration";
    private static final String MAXIMUM_GAP = "maximum_gap";
    private static final String MAXIMUM_AGE = "maximum_age";
    private static final String DISABLE_PENDING = "disable_pending";

    private AlertPolicies() {
    }

    public static JsonObject document(SystemConfig config) {
        return Json.createObjectBuilder()
                .add(BuiltInAlert.PARTITION_COUNT.alertName(),
                        stream("partitionCountAlert", config.partitionCountAlert()))
                .add(BuiltInAlert.COMPACTION_READ_COST.alertName(),
                        stream("compactionReadCostAlert", config.compactionReadCostAlert()))
                .add(BuiltInAlert.WORKER_LIVENESS.alertName(),
                        stream("workerLivenessAlert", config.workerLivenessAlert()))
                .add(BuiltInAlert.METRICS_COLLECTOR_PROGRESS.alertName(),
                        collector("metricCollectorProgressAlert", config.metricCollectorProgressAlert()))
                .add(BuiltInAlert.FENCE_HELD.alertName(), stream("fenceHeldAlert", config.fenceHeldAlert()))
                .build();
    }

    /** {@code config} with the alert policies the row's document holds (defaults for a null or empty one). */
    public static SystemConfig read(SystemConfig config, String metadata) {
        if (metadata == null) {
            return config;
        }
        JsonObject document = DocumentFields.object("metadata", metadata);
        return config.withAlerts(stream(document, BuiltInAlert.PARTITION_COUNT),
                stream(document, BuiltInAlert.COMPACTION_READ_COST), stream(document, BuiltInAlert.WORKER_LIVENESS),
                collector(document)).withFenceHeldAlert(stream(document, BuiltInAlert.FENCE_HELD));
    }

    /** The schedule {@code config} declares for {@code alert}, or the default. */
    public static String schedule(SystemConfig config, BuiltInAlert alert) {
        return switch (alert) {
            case PARTITION_COUNT -> config.partitionCountAlert().resolvedSchedule();
            case COMPACTION_READ_COST -> config.compactionReadCostAlert().resolvedSchedule();
            case WORKER_LIVENESS -> config.workerLivenessAlert().resolvedSchedule();
            case METRICS_COLLECTOR_PROGRESS -> config.metricCollectorProgressAlert().resolvedSchedule();
            case FENCE_HELD -> config.fenceHeldAlert().resolvedSchedule();
        };
    }

    /** How often {@code schedule} ({@code @every <duration>}) runs; SQL0108 naming {@code property} otherwise. */
    public static Duration interval(String property, String schedule) {
        Duration every = DurationText.parse(property, schedule.substring("@every".length()).trim());
        if (every.isNegative() || every.isZero()) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(property,
                    schedule, "must repeat after a positive duration")));
        }
        return every;
    }

    private static JsonObject stream(String property, StreamAlertConfig policy) {
        JsonObjectBuilder document = Json.createObjectBuilder();
        if (policy.schedule() != null) {
            interval(property + ".schedule", policy.schedule());
            document.add(SCHEDULE, policy.schedule());
        }
        if (policy.threshold() != null) {
            document.add(THRESHOLD, policy.threshold());
        }
        timings(document, property, policy.pendingDuration(), policy.maximumGap(), null, policy.disablePending());
        return document.build();
    }

    private static JsonObject collector(String property, CollectorProgressAlertConfig policy) {
        JsonObjectBuilder document = Json.createObjectBuilder();
        if (policy.schedule() != null) {
            interval(property + ".schedule", policy.schedule());
            document.add(SCHEDULE, policy.schedule());
        }
        timings(document, property, policy.pendingDuration(), null, policy.maximumAge(), policy.disablePending());
        return document.build();
    }

    private static void timings(JsonObjectBuilder document, String property, Duration pending, Duration gap,
                                Duration age, boolean disablePending) {
        if (pending != null) {
            document.add(PENDING_DURATION, DurationText.formatStorable(property + ".pendingDuration", pending));
        }
        if (gap != null) {
            document.add(MAXIMUM_GAP, DurationText.formatStorable(property + ".maximumGap", gap));
        }
        if (age != null) {
            document.add(MAXIMUM_AGE, DurationText.formatStorable(property + ".maximumAge", age));
        }
        if (disablePending) {
            document.add(DISABLE_PENDING, true);
        }
    }

    private static StreamAlertConfig stream(JsonObject document, BuiltInAlert alert) {
        String path = alert.alertName();
        JsonObject policy = DocumentFields.object(document, path, path);
        if (policy == null) {
            return null;
        }
        return new StreamAlertConfig(DocumentFields.string(policy, SCHEDULE, path + "." + SCHEDULE),
                DocumentFields.wholeNumber(policy, THRESHOLD, path + "." + THRESHOLD),
                DocumentFields.duration(policy, PENDING_DURATION, path + "." + PENDING_DURATION),
                DocumentFields.duration(policy, MAXIMUM_GAP, path + "." + MAXIMUM_GAP),
                DocumentFields.flag(policy, DISABLE_PENDING, path + "." + DISABLE_PENDING));
    }

    private static CollectorProgressAlertConfig collector(JsonObject document) {
        String path = BuiltInAlert.METRICS_COLLECTOR_PROGRESS.alertName();
        JsonObject policy = DocumentFields.object(document, path, path);
        if (policy == null) {
            return null;
        }
        return new CollectorProgressAlertConfig(DocumentFields.string(policy, SCHEDULE, path + "." + SCHEDULE),
                DocumentFields.duration(policy, MAXIMUM_AGE, path + "." + MAXIMUM_AGE),
                DocumentFields.duration(policy, PENDING_DURATION, path + "." + PENDING_DURATION),
                DocumentFields.flag(policy, DISABLE_PENDING, path + "." + DISABLE_PENDING));
    }
}
