package io.sqlstreams.engine.janitor;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import io.sqlstreams.JanitorConfig;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.query.JanitorQueries;
import io.sqlstreams.engine.query.LogPartition;

/**
 * The janitor's batched deletes of one stream's expired rows: messages past retention at the front of each
 * partition (the partial sweep), idempotency claims past their TTL, idle head-less compaction rows and expired
 * key leases. Each batch is a transaction of its own of at most SweepBatchSize rows.
 */
final class ExpirySweeps {
    /** The most batches one pass deletes from each table that is not the log. */
    static final long MAX_BATCHES = 1000;

    private final JanitorQueries queries;
    private final Stream stream;
    private final int batchSize;
    private final Duration gracePeriod;

    ExpirySweeps(JanitorQueries queries, Stream stream, JanitorConfig config) {
        this.queries = queries;
        this.stream = stream;
        this.batchSize = config.resolvedSweepBatchSize();
        this.gracePeriod = config.resolvedPartialSweepGracePeriod();
    }

    /**
     * From the front of every partition, deletes messages older than RetentionTTL + PartialSweepGracePeriod and,
     * unless the stream allows dropping past committed, at or below the slowest group's committed cursor (no
     * bound without groups), with their exception, delivery-log and compaction-head rows; at most
     * ceil(partition size / batch size) batches per partition. Counts the messages it deleted.
     */
    void expiredMessages(CleanupBudget budget) {
        if (stream.retentionTtl().isZero()) {
            return;
        }
        Duration age = stream.retentionTtl().plus(gracePeriod);
        Scope scope = budget.inTransaction("reading the partitions of stream \"" + stream.name() + "\"",
                connection -> new Scope(queries.partitions(connection, stream.id(), stream.partitionSize()),
                        stream.allowDropPastCommitted() ? OptionalLong.empty()
                                : queries.committedFloor(connection, stream.id())));
        Long floor = scope.floor().isPresent() ? scope.floor().getAsLong() : null;
        for (LogPartition partition : scope.partitions()) {
            long maxBatches = (partition.size() + batchSize - 1) / batchSize;
            budget.sweep("sweeping expired messages of partition " + partition.number() + " of stream \""
                    + stream.name() + "\"", maxBatches, batchSize, connection ->
                    queries.sweepExpiredMessages(connection, stream.id(), partition, age, floor, batchSize));
        }
    }

    /** Deletes idempotency claims older than IdempotencyKeyTTL. */
    void idempotencyKeys(CleanupBudget budget) {
        budget.sweep("sweeping expired idempotency claims of stream \"" + stream.name() + "\"", MAX_BATCHES,
                batchSize, connection -> queries.sweepIdempotencyKeys(connection, stream.id(),
                        stream.idempotencyKeyTtl(), batchSize));
    }

    /** Deletes head-less compaction rows not updated for EmptyCompactionHeadTTL and not locked. */
    void emptyCompactionHeads(CleanupBudget budget) {
        budget.sweep("sweeping empty compaction heads of stream \"" + stream.name() + "\"", MAX_BATCHES,
                batchSize, connection -> queries.sweepEmptyCompactionHeads(connection, stream.id(),
                        stream.emptyCompactionHeadTtl(), batchSize));
    }

    /** Deletes message-key leases whose expiry has passed (left by crashed or overrun runs). */
    void expiredKeyLeases(CleanupBudget budget) {
        budget.sweep("sweeping expired key leases of stream \"" + stream.name() + "\"", MAX_BATCHES,
                batchSize, connection -> queries.sweepExpiredKeyLeases(connection, stream.id(), batchSize));
    }

    /** The partitions to sweep and the committed floor to stay at or below; no floor when unbounded. */
    private record Scope(List<LogPartition> partitions, OptionalLong floor) {
    }
}
