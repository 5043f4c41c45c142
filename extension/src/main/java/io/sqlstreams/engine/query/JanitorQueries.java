package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Statement;

/**
 * The stream janitor's statements on one stream's table family: the partitions of its log and their retention,
 * the sweeps of expired rows, and the vacuum of its idempotency claims. Each sweep deletes at most one batch and
 * returns how many rows it removed.
 */
public final class JanitorQueries {
    private final Sql sql;

    public JanitorQueries(Sql sql) {
        this.sql = sql;
    }

    /** Bounds every later statement of the transaction open on {@code connection} to {@code limit}. */
    public void limitStatementTime(Connection connection, Duration limit) throws SQLException {
        try (BoundStatement set = BoundStatement.prepare(connection, sql.statement("limit_statement_time"))) {
            set.bind("statement_timeout", Math.max(1, limit.toMillis()) + "ms")
                    .querySingle(row -> row.getString("statement_timeout"));
        }
    }

    /** The partitions the stream's log has, ascending. */
    public List<LogPartition> partitions(Connection connection, long streamId, long partitionSize)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("log_partitions", streamId))) {
            return query.queryList(row -> LogPartition.of(row.getLong("partition"), partitionSize));
        }
    }

    /** The highest id in the log; empty when the log holds no message. */
    public OptionalLong newestMessageId(Connection connection, long streamId) throws SQLException {
        return optionalLong(connection, sql.streamStatement("newest_message_id", streamId), "newest_id");
    }

    /** The slowest group's committed cursor; empty when the stream has no groups. */
    public OptionalLong committedFloor(Connection connection, long streamId) throws SQLException {
        return optionalLong(connection, sql.streamStatement("committed_floor", streamId), "committed_floor");
    }

    /**
     * Locks the partition against inserts until the transaction ends, after the ones in flight have
     * finished; readers go on. Lock waits are the caller's to bound.
     */
    public void holdPartition(Connection connection, long streamId, LogPartition partition) throws SQLException {
        try (BoundStatement lock = BoundStatement.prepare(connection,
                partitionStatement("hold_partition", streamId, partition))) {
            lock.update();
        }
    }

    /**
     * Whether the partition holds no message younger than {@code age}: its newest message is at least that old, or
     * it holds none at all.
     */
    public boolean pastRetention(Connection connection, long streamId, LogPartition partition, Duration age)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("partition_past_retention", streamId))) {
            return query.bind("low", partition.low()).bind("high", partition.high()).bind("age_micros", Micros.of(age))
                    .querySingle(row -> row.getBoolean("expired"));
        }
    }

    /** Deletes the exception, delivery-log and compaction-head rows of the partition's messages. */
    public void deleteDependents(Connection connection, long streamId, LogPartition partition) throws SQLException {
        try (BoundStatement delete = BoundStatement.prepare(connection,
                sql.streamStatement("delete_partition_dependents", streamId))) {
            delete.bind("low", partition.low()).bind("high", partition.high()).update();
        }
    }

    /** Drops the partition. Lock waits are the caller's to bound ({@link DdlLockTimeout}). */
    public void dropPartition(Connection connection, long streamId, LogPartition partition) throws SQLException {
        try (BoundStatement drop = BoundStatement.prepare(connection,
                partitionStatement("drop_partition", streamId, partition))) {
            drop.update();
        }
    }

    /**
     * Deletes up to {@code batchSize} of the partition's oldest messages created more than {@code age} ago and,
     * when {@code committedFloor} is given, at or below it, with their exception, delivery-log and compaction-head
     * rows; the number of messages deleted.
     */
    public int sweepExpiredMessages(Connection connection, long streamId, LogPartition partition, Duration age,
                                    Long committedFloor, int batchSize) throws SQLException {
        try (BoundStatement sweep = BoundStatement.prepare(connection,
                sql.streamStatement("sweep_expired_messages", streamId))) {
            return sweep.bind("low", partition.low()).bind("high", partition.high()).bind("age_micros", Micros.of(age))
                    .bind("committed_floor", committedFloor).bind("batch_size", batchSize)
                    .querySingle(row -> row.getInt("removed"));
        }
    }

    /** Deletes up to {@code batchSize} idempotency claims older than {@code age}; how many. */
    public int sweepIdempotencyKeys(Connection connection, long streamId, Duration age, int batchSize)
            throws SQLException {
        return sweepOlderThan(connection, "sweep_expired_idempotency_keys", streamId, age, batchSize);
    }

    /** Deletes up to {@code batchSize} head-less compaction rows idle for longer than {@code age}; how many. */
    public int sweepEmptyCompactionHeads(Connection connection, long streamId, Duration age, int batchSize)
            throws SQLException {
        return sweepOlderThan(connection, "sweep_empty_compaction_heads", streamId, age, batchSize);
    }

    /** Deletes up to {@code batchSize} key leases that have expired; how many. */
    public int sweepExpiredKeyLeases(Connection connection, long streamId, int batchSize) throws SQLException {
        try (BoundStatement sweep = BoundStatement.prepare(connection,
                sql.streamStatement("sweep_expired_key_leases", streamId))) {
            return sweep.bind("batch_size", batchSize).querySingle(row -> row.getInt("removed"));
        }
    }

    /**
     * {@code VACUUM (ANALYZE)} of the stream's idempotency claims, bounded by {@code timeout}; the connection must
     * be in auto-commit mode, since VACUUM cannot run inside a transaction.
     */
    public void vacuumIdempotencyKeys(Connection connection, long streamId, Duration timeout) throws SQLException {
        try (BoundStatement vacuum = BoundStatement.prepare(connection,
                sql.streamStatement("vacuum_idempotency_keys", streamId))) {
            vacuum.timeout(timeout).update();
        }
    }

    private int sweepOlderThan(Connection connection, String statement, long streamId, Duration age, int batchSize)
            throws SQLException {
        try (BoundStatement sweep = BoundStatement.prepare(connection, sql.streamStatement(statement, streamId))) {
            return sweep.bind("age_micros", Micros.of(age)).bind("batch_size", batchSize)
                    .querySingle(row -> row.getInt("removed"));
        }
    }

    private Statement partitionStatement(String name, long streamId, LogPartition partition) {
        return sql.partitionStatement(name, streamId, partition.number(), partition.low(), partition.high());
    }

    private static OptionalLong optionalLong(Connection connection, Statement statement,
                                             String column) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, statement)) {
            return query.querySingle(row -> {
                long value = row.getLong(column);
                return row.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
            });
        }
    }
}
