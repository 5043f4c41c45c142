package io.sqlstreams;

import java.time.Duration;

/**
 * A stream's declaration, written to its row at {@code register}: newest declaration wins, and a
 * differing one logs SQL0061 with the difference. Every field is optional ({@code null} or zero means
 * the default).
 *
 * @param partitionSize          rows per partition of the log, at least 2; immutable once the stream
 *                               exists (a differing value fails with SQL0004). Default 1,000,000.
 * @param retentionTtl           age after which the janitor may drop or sweep messages. Default: keep
 *                               forever.
 * @param allowDropPastCommitted let retention drop messages the slowest group has not committed yet.
 *                               Default false.
 * @param idempotencyKeyTtl      how long a produce's idempotency claim is kept. Default 24 h (zero means
 *                               the default, never "forever").
 * @param emptyCompactionHeadTtl how long a compaction row without a head may sit idle before it is
 *                               swept. Default 1 h.
 * @param deliveryLogMode        which outcomes the delivery log records. Default
 *                               {@link DeliveryLogMode#FAILURES}.
 * @param janitor                the janitor worker's settings. Default {@link JanitorConfig#defaults()}.
 * @param vacuum                 the vacuum worker's settings. Default {@link VacuumConfig#defaults()}.
 * @param fenceWarnAfter         how long a group's fresh claims may wait on an open transaction that produced
 *                               into the stream before SQL0160 names it, from 1 s to
 *                               {@link Limits#LONGEST_TIMING}. Default 10 s.
 */
public record StreamConfig(Long partitionSize, Duration retentionTtl, boolean allowDropPastCommitted,
                           Duration idempotencyKeyTtl, Duration emptyCompactionHeadTtl,
                           DeliveryLogMode deliveryLogMode, JanitorConfig janitor, VacuumConfig vacuum,
                           Duration fenceWarnAfter) {

    public static final long DEFAULT_PARTITION_SIZE = 1_000_000L;
    public static final long MINIMUM_PARTITION_SIZE = 2L;
    public static final Duration DEFAULT_IDEMPOTENCY_KEY_TTL = Duration.ofHours(24);
    public static final Duration DEFAULT_EMPTY_COMPACTION_HEAD_TTL = Duration.ofHours(1);
    public static final Duration DEFAULT_FENCE_WARN_AFTER = Duration.ofSeconds(10);
    public static final Duration SHORTEST_FENCE_WARN_AFTER = Duration.ofSeconds(1);

    public StreamConfig {
        partitionSize = Unset.ifZero(partitionSize);
        retentionTtl = Unset.ifZero(retentionTtl);
        idempotencyKeyTtl = Unset.ifZero(idempotencyKeyTtl);
        emptyCompactionHeadTtl = Unset.ifZero(emptyCompactionHeadTtl);
        fenceWarnAfter = Unset.ifZero(fenceWarnAfter);
    }

    public static StreamConfig defaults() {
        return new StreamConfig(null, null, false, null, null, null, null, null, null);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().partitionSize(partitionSize).retentionTtl(retentionTtl)
                .allowDropPastCommitted(allowDropPastCommitted).idempotencyKeyTtl(idempotencyKeyTtl)
                .emptyCompactionHeadTtl(emptyCompactionHeadTtl).deliveryLogMode(deliveryLogMode)
                .janitor(janitor).vacuum(vacuum).fenceWarnAfter(fenceWarnAfter);
    }

    public long resolvedPartitionSize() {
        return Unset.or(partitionSize, DEFAULT_PARTITION_SIZE);
    }

    /** The retention age, or {@link Duration#ZERO} for "keep forever". */
    public Duration resolvedRetentionTtl() {
        return Unset.or(retentionTtl, Duration.ZERO);
    }

    public Duration resolvedIdempotencyKeyTtl() {
        return Unset.or(idempotencyKeyTtl, DEFAULT_IDEMPOTENCY_KEY_TTL);
    }

    public Duration resolvedEmptyCompactionHeadTtl() {
        return Unset.or(emptyCompactionHeadTtl, DEFAULT_EMPTY_COMPACTION_HEAD_TTL);
    }

    public DeliveryLogMode resolvedDeliveryLogMode() {
        return deliveryLogMode == null ? DeliveryLogMode.FAILURES : deliveryLogMode;
    }

    public Duration resolvedFenceWarnAfter() {
        return Unset.or(fenceWarnAfter, DEFAULT_FENCE_WARN_AFTER);
    }

    public JanitorConfig resolvedJanitor() {
        return janitor == null ? JanitorConfig.defaults() : janitor;
    }

    public VacuumConfig resolvedVacuum() {
        return vacuum == null ? VacuumConfig.defaults() : vacuum;
    }

    /**
     * Checks the declaration: partition size from 2 to {@link Limits#LARGEST_PARTITION_SIZE}, durations
     * within {@link Limits}, the fence warning at least {@link #SHORTEST_FENCE_WARN_AFTER}, and the worker
     * settings.
     *
     * @throws InvalidConfigurationException (SQL0108) listing every broken rule
     */
    public void validate() {
        Violations violations = new Violations();
        violations.require(partitionSize == null || partitionSize >= MINIMUM_PARTITION_SIZE, "partitionSize",
                partitionSize, "must be at least " + MINIMUM_PARTITION_SIZE);
        violations.require(partitionSize == null || partitionSize <= Limits.LARGEST_PARTITION_SIZE, "partitionSize",
                partitionSize, "must be at most " + Limits.LARGEST_PARTITION_SIZE);
        violations.age("retentionTtl", retentionTtl);
        violations.age("idempotencyKeyTtl", idempotencyKeyTtl);
        violations.age("emptyCompactionHeadTtl", emptyCompactionHeadTtl);
        violations.require(fenceWarnAfter == null || fenceWarnAfter.compareTo(SHORTEST_FENCE_WARN_AFTER) >= 0,
                "fenceWarnAfter", fenceWarnAfter, "must be at least " + SHORTEST_FENCE_WARN_AFTER);
        violations.atMost("fenceWarnAfter", fenceWarnAfter, Limits.LONGEST_TIMING);
        resolvedJanitor().collectViolations(violations, "janitor");
        resolvedVacuum().collectViolations(violations, "vacuum");
        violations.throwIfAny();
    }

    /** Builds a declaration field by field; unset fields stay null. */
    public static final class Builder {
        private Long partitionSize;
        private Duration retentionTtl;
        private boolean allowDropPastCommitted;
        private Duration idempotencyKeyTtl;
        private Duration emptyCompactionHeadTtl;
        private DeliveryLogMode deliveryLogMode;
        private JanitorConfig janitor;
        private VacuumConfig vacuum;
        private Duration fenceWarnAfter;

        private Builder() {
        }

        public Builder partitionSize(Long partitionSize) {
            this.partitionSize = partitionSize;
            return this;
        }

        public Builder retentionTtl(Duration retentionTtl) {
            this.retentionTtl = retentionTtl;
            return this;
        }

        public Builder allowDropPastCommitted(boolean allowDropPastCommitted) {
            this.allowDropPastCommitted = allowDropPastCommitted;
            return this;
        }

        public Builder idempotencyKeyTtl(Duration idempotencyKeyTtl) {
            this.idempotencyKeyTtl = idempotencyKeyTtl;
            return this;
        }

        public Builder emptyCompactionHeadTtl(Duration emptyCompactionHeadTtl) {
            this.emptyCompactionHeadTtl = emptyCompactionHeadTtl;
            return this;
        }

        public Builder deliveryLogMode(DeliveryLogMode deliveryLogMode) {
            this.deliveryLogMode = deliveryLogMode;
            return this;
        }

        public Builder janitor(JanitorConfig janitor) {
            this.janitor = janitor;
            return this;
        }

        public Builder vacuum(VacuumConfig vacuum) {
            this.vacuum = vacuum;
            return this;
        }

        public Builder fenceWarnAfter(Duration fenceWarnAfter) {
            this.fenceWarnAfter = fenceWarnAfter;
            return this;
        }

        public StreamConfig build() {
            return new StreamConfig(partitionSize, retentionTtl, allowDropPastCommitted, idempotencyKeyTtl,
                    emptyCompactionHeadTtl, deliveryLogMode, janitor, vacuum, fenceWarnAfter);
        }
    }
}
