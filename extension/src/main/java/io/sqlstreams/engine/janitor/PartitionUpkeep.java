package io.sqlstreams.engine.janitor;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import io.sqlstreams.Stream;
import io.sqlstreams.engine.query.DdlLockTimeout;
import io.sqlstreams.engine.query.JanitorQueries;
import io.sqlstreams.engine.query.LogPartition;
import io.sqlstreams.engine.query.StreamQueries;

/**
 * The janitor's partition DDL on one stream's log: creating partitions ahead of the producers, and dropping whole
 * partitions that retention has passed. Both run under the DDL lock timeout.
 */
final class PartitionUpkeep {
    private final JanitorQueries queries;
    private final StreamQueries streams;
    private final DdlLockTimeout ddlLockTimeout;
    private final Stream stream;

    PartitionUpkeep(JanitorQueries queries, StreamQueries streams, DdlLockTimeout ddlLockTimeout, Stream stream) {
        this.queries = queries;
        this.streams = streams;
        this.ddlLockTimeout = ddlLockTimeout;
        this.stream = stream;
    }

    /** Creates the partition holding the next id and the one after it, when missing; counts those it created. */
    void createAhead(CleanupBudget budget) {
        budget.count(budget.inTransaction("creating partitions ahead of stream \"" + stream.name() + "\"",
                this::createNextTwo));
    }

    private long createNextTwo(Connection connection) throws SQLException {
        ddlLockTimeout.apply(connection);
        long next = LogPartition.holding(streams.nextMessageId(connection, stream.id()), stream.partitionSize())
                .number();
        long created = 0;
        for (long partition = next; partition <= next + 1; partition++) {
            if (streams.createPartition(connection, stream.id(), partition, stream.partitionSize())) {
                created++;
            }
        }
        return created;
    }

    /**
     * Drops each partition strictly below the active one (the one holding the newest id) that holds no message
     * younger than RetentionTTL (its newest is at least that old, or it is empty) and, unless the stream allows
     * dropping past committed, whose last id the slowest group has committed; with the partition go its exception,
     * delivery-log and compaction-head rows, in the same transaction. A stream without groups holds nothing back.
     * Counts the partitions it dropped.
     */
    void dropExpired(CleanupBudget budget) {
        if (stream.retentionTtl().isZero()) {
            return;
        }
        List<LogPartition> belowActive = budget.inTransaction(
                "listing the partitions of stream \"" + stream.name() + "\"", this::partitionsBelowActive);
        for (LogPartition partition : belowActive) {
            if (budget.spent()) {
                return;
            }
            boolean dropped = budget.inTransaction("dropping partition " + partition.number() + " of stream \""
                    + stream.name() + "\"", connection -> dropIfExpired(connection, partition));
            budget.count(dropped ? 1 : 0);
        }
    }

    private List<LogPartition> partitionsBelowActive(Connection connection) throws SQLException {
        OptionalLong newest = queries.newestMessageId(connection, stream.id());
        if (newest.isEmpty()) {
            return List.of();
        }
        long active = LogPartition.holding(newest.getAsLong(), stream.partitionSize()).number();
        return queries.partitions(connection, stream.id(), stream.partitionSize()).stream()
                .filter(partition -> partition.number() < active).toList();
    }

    /**
     * Judged under a lock that waits out producers still inserting into the partition, so a message committed
     * late cannot be dropped unjudged, nor an empty partition dropped under a message about to commit into it.
     */
    private boolean dropIfExpired(Connection connection, LogPartition partition) throws SQLException {
        ddlLockTimeout.apply(connection);
        queries.holdPartition(connection, stream.id(), partition);
        if (!expired(connection, partition)) {
            return false;
        }
        queries.deleteDependents(connection, stream.id(), partition);
        queries.dropPartition(connection, stream.id(), partition);
        return true;
    }

    private boolean expired(Connection connection, LogPartition partition) throws SQLException {
        Duration retention = stream.retentionTtl();
        if (!queries.pastRetention(connection, stream.id(), partition, retention)) {
            return false;
        }
        if (stream.allowDropPastCommitted()) {
            return true;
        }
        OptionalLong floor = queries.committedFloor(connection, stream.id());
        return floor.isEmpty() || partition.lastId() <= floor.getAsLong();
    }
}
