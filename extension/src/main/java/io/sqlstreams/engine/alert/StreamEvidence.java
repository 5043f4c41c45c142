package io.sqlstreams.engine.alert;

import java.io.StringReader;
import java.util.function.Function;

import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.StreamAlertConfig;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.metrics.BuiltInReadings;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

/**
 * How each stream alert judges one retained measurement of its stream: which series it reads, its threshold, and
 * when a sample is unhealthy (reaching the threshold counts). {@code compaction_read_cost} counts only while the
 * partition-count sample says the stream is compacted; a sample that does not say is unusable.
 */
enum StreamEvidence {
    PARTITION_COUNT(BuiltInAlert.PARTITION_COUNT, Code.SQL0098, SystemConfig::partitionCountAlert, "partitions"),
    COMPACTION_READ_COST(BuiltInAlert.COMPACTION_READ_COST, Code.SQL0098, SystemConfig::compactionReadCostAlert,
            "partitions"),
    WORKER_LIVENESS(BuiltInAlert.WORKER_LIVENESS, Code.SQL0099,
            SystemConfig::workerLivenessAlert, "workers of the stream and its groups without a live instance"),
    FENCE_HELD(BuiltInAlert.FENCE_HELD, Code.SQL0161, SystemConfig::fenceHeldAlert,
            "s the oldest open producing transaction holding back a group has been open");

    private static final long DEFAULT_COMPACTION_PARTITIONS = 10_000;
    private static final long DEFAULT_FENCE_HELD_SECONDS = 10;

    private final BuiltInAlert alert;
    private final Code series;
    private final Function<SystemConfig, StreamAlertConfig> policy;
    private final String counted;

    StreamEvidence(BuiltInAlert alert, Code series, Function<SystemConfig, StreamAlertConfig> policy,
                   String counted) {
        this.alert = alert;
        this.series = series;
        this.policy = policy;
        this.counted = counted;
    }

    Code series() {
        return series;
    }

    StreamAlertConfig policy(SystemConfig config) {
        return policy.apply(config);
    }

    long threshold(EvaluationContext context) {
        Long declared = policy(context.config()).threshold();
        if (declared != null) {
            return declared;
        }
        return switch (this) {
            case PARTITION_COUNT -> context.halfLockCeiling();
            case COMPACTION_READ_COST -> DEFAULT_COMPACTION_PARTITIONS;
            case WORKER_LIVENESS -> 1;
            case FENCE_HELD -> DEFAULT_FENCE_HELD_SECONDS;
        };
    }

    Sample.Verdict judge(Measurement sample, long threshold) {
        if (this == COMPACTION_READ_COST) {
            String status = compactionStatus(sample);
            if (status == null) {
                return Sample.Verdict.UNUSABLE;
            }
            if (!status.equals(BuiltInReadings.COMPACTED)) {
                return Sample.Verdict.HEALTHY;
            }
        }
        return sample.value() >= threshold ? Sample.Verdict.UNHEALTHY : Sample.Verdict.HEALTHY;
    }

    String finding(Measurement sample, long threshold) {
        String figures = Math.round(sample.value()) + " " + counted + " (threshold " + threshold + ")";
        if (this != COMPACTION_READ_COST) {
            return figures;
        }
        String status = compactionStatus(sample);
        return status == null ? "the partition count carries no " + BuiltInReadings.COMPACTION_STATUS
                : status.replace('_', ' ') + ", " + figures;
    }

    static StreamEvidence of(BuiltInAlert alert) {
        for (StreamEvidence evidence : values()) {
            if (evidence.alert == alert) {
                return evidence;
            }
        }
        throw new IllegalArgumentException(alert + " is no stream alert");
    }

    private static String compactionStatus(Measurement sample) {
        if (sample.metadata() == null) {
            return null;
        }
        try (JsonReader reader = Json.createReader(new StringReader(sample.metadata()))) {
            JsonObject metadata = reader.readObject();
            return metadata.containsKey(BuiltInReadings.COMPACTION_STATUS)
                    ? metadata.getString(BuiltInReadings.COMPACTION_STATUS, null) : null;
        }
    }
}
