package io.sqlstreams;

import java.time.Duration;
import java.time.Instant;

/**
 * A registered stream as stored.
 *
 * @param id                     the stream's id, which names its table family
 * @param name                   the stream's current name
 * @param partitionSize          rows per partition, fixed at creation
 * @param retentionTtl           retention age; {@link Duration#ZERO} keeps forever
 * @param allowDropPastCommitted whether retention may pass the slowest group's committed cursor
 * @param idempotencyKeyTtl      how long idempotency claims are kept
 * @param emptyCompactionHeadTtl how long a head-less compaction row may stay idle
 * @param deliveryLogMode        which outcomes the delivery log records
 * @param fenceWarnAfter         how long fresh claims wait on an open producer before SQL0160 names it
 * @param createdAt              when the stream was first registered
 * @param updatedAt              when its declaration last changed
 */
public record Stream(long id, String name, long partitionSize, Duration retentionTtl,
                     boolean allowDropPastCommitted, Duration idempotencyKeyTtl, Duration emptyCompactionHeadTtl,
                     DeliveryLogMode deliveryLogMode, Duration fenceWarnAfter, Instant createdAt,
                     Instant updatedAt) {
}
