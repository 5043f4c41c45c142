package io.sqlstreams.cli;

import java.time.Duration;

import io.sqlstreams.CollectorProgressAlertConfig;
import io.sqlstreams.StreamAlertConfig;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.codec.DurationText;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The alert policies of a {@link SystemConfig} as {@code system get} shows them: each alert's policy with the
 * defaults filled in, except a threshold left to its default, which is {@code null} (the default of
 * {@code partition_count} depends on the server's lock settings).
 */
final class AlertPolicyFormat {
    private AlertPolicyFormat() {
    }

    static JsonObject json(SystemConfig config) {
        return Json.createObjectBuilder()
                .add("partition_count", stream(config.partitionCountAlert()))
                .add("compaction_read_cost", stream(config.compactionReadCostAlert()))
                .add("worker_liveness", stream(config.workerLivenessAlert()))
                .add("fence_held", stream(config.fenceHeldAlert()))
                .add("metrics_collector_progress", collector(config.metricCollectorProgressAlert(),
                        config.resolvedMetricCollectorPollRate()))
                .build();
    }

    private static JsonObject stream(StreamAlertConfig policy) {
        JsonObjectBuilder fields = Json.createObjectBuilder().add("schedule", policy.resolvedSchedule());
        if (policy.threshold() == null) {
            fields.addNull("threshold");
        } else {
            fields.add("threshold", policy.threshold());
        }
        return fields.add("pending_duration", DurationText.format(policy.resolvedPendingDuration()))
                .add("maximum_gap", DurationText.format(policy.resolvedMaximumGap()))
                .add("disable_pending", policy.disablePending())
                .build();
    }

    private static JsonObject collector(CollectorProgressAlertConfig policy, Duration collectorPollRate) {
        return Json.createObjectBuilder()
                .add("schedule", policy.resolvedSchedule())
                .add("maximum_age", DurationText.format(policy.resolvedMaximumAge(collectorPollRate)))
                .add("pending_duration", DurationText.format(policy.resolvedPendingDuration()))
                .add("disable_pending", policy.disablePending())
                .build();
    }
}
