package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.Consumer;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.Statement;
import io.sqlstreams.engine.sql.TransientFailures;

/**
 * Every statement on stream rows ({@code stream_config} and its log), on a stream's table family (creation, the
 * emptiness check, the drop) and on the partitions of its log. Methods run on the caller's connection, inside
 * whatever transaction it has open.
 */
public final class StreamQueries {
    private static final String UNIQUE_VIOLATION = "23505";

    /** A stream's table family (stream scope, DDL version 1), in creation order. */

    private final Sql sql;
    private final DdlLockTimeout ddlLockTimeout;

    public StreamQueries(Sql sql) {
        this.sql = sql;
        this.ddlLockTimeout = new DdlLockTimeout(sql);
    }

    /** A stream's declaration as its row stores it (the durations in nanoseconds). */
    public record StreamSettings(long partitionSize, Duration retentionTtl, boolean allowDropPastCommitted,
                                 Duration idempotencyKeyTtl, Duration emptyCompactionHeadTtl,
                                 DeliveryLogMode deliveryLogMode, Duration fenceWarnAfter) {
    }

    /** The new stream's id, or empty when a stream of that name exists. */
    public Optional<Long> insert(Connection connection, long systemId, String name, StreamSettings settings)
            throws SQLException {
        try (BoundStatement insert = BoundStatement.prepare(connection, sql.statement("insert_stream"))) {
            bindSettings(insert, settings)
                    .bind("system_id", systemId)
                    .bind("name", name)
                    .bind("partition_size", settings.partitionSize());
            return insert.queryOne(row -> row.getLong("stream_id"));
        }
    }

    public Optional<Stream> find(Connection connection, String name) throws SQLException {
        return byName(connection, "stream_by_name", name);
    }

    /** The stream with this id, whatever it is called now. */
    public Optional<Stream> find(Connection connection, long streamId) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("stream_by_id"))) {
            return query.bind("stream_id", streamId).queryOne(StreamQueries::stream);
        }
    }

    /** The stream's row, locked until the transaction ends. */
    public Optional<Stream> lock(Connection connection, String name) throws SQLException {
        return byName(connection, "lock_stream_by_name", name);
    }

    /** The stream's row, or SQL0005. */
    public Stream require(Connection connection, String name) throws SQLException {
        return find(connection, name).orElseThrow(() -> notFound(name));
    }

    /** SQL0005 for a stream that is not registered. */
    public static SqlStreamsException notFound(String name) {
        return new SqlStreamsException(Code.SQL0005, "stream \"" + name + "\" is not registered");
    }

    /** Every stream, ordered by name. */
    public List<Stream> all(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("all_streams"))) {
            return query.queryList(StreamQueries::stream);
        }
    }

    /** Replaces the settings a redeclaration may change (every one but the partition size). */
    public void update(Connection connection, long streamId, StreamSettings settings) throws SQLException {
        try (BoundStatement update = BoundStatement.prepare(connection, sql.statement("update_stream_config"))) {
            bindSettings(update, settings).bind("stream_id", streamId).update();
        }
    }

    /** Appends the stream row as it now is to {@code stream_config_log}. */
    public void logSnapshot(Connection connection, long streamId, String declaredBy) throws SQLException {
        try (BoundStatement log = BoundStatement.prepare(connection, sql.statement("log_stream_config"))) {
            log.bind("declared_by", declaredBy).bind("stream_id", streamId).update();
        }
    }

    /**
     * The renamed stream's id, or empty when no stream is called {@code name}; SQL0007 when {@code newName} is taken.
     */
    public Optional<Long> rename(Connection connection, String name, String newName) throws SQLException {
        try (BoundStatement rename = BoundStatement.prepare(connection, sql.statement("rename_stream"))) {
            return rename.bind("new_name", newName).bind("name", name).queryOne(row -> row.getLong("stream_id"));
        } catch (SQLException failure) {
            if (UNIQUE_VIOLATION.equals(TransientFailures.state(failure))) {
                throw new SqlStreamsException(Code.SQL0007, "stream name \"" + newName + "\" is taken", failure);
            }
            throw failure;
        }
    }

    public void delete(Connection connection, long streamId) throws SQLException {
        try (BoundStatement delete = BoundStatement.prepare(connection, sql.statement("delete_stream"))) {
            delete.bind("stream_id", streamId).update();
        }
    }

    /** The consumer groups of the stream called {@code streamName}, ordered by name. */
    public List<Consumer> consumers(Connection connection, String streamName) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("consumers_of_stream"))) {
            return query.bind("stream_name", streamName).queryList(row -> new Consumer(row.getLong("group_id"),
                    row.getString("stream_name"), row.getString("group_name"),
                    row.getTimestamp("created_at").toInstant(), row.getTimestamp("updated_at").toInstant()));
        }
    }


    public boolean hasMessages(Connection connection, long streamId) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("stream_has_messages", streamId))) {
            return query.querySingle(row -> row.getBoolean("has_messages"));
        }
    }

    /** Drops the stream's table family under the DDL lock timeout, for the rest of the caller's transaction. */
    public void dropFamily(Connection connection, long streamId) throws SQLException {
        ddlLockTimeout.apply(connection);
        ddl(connection, sql.streamStatement("drop_family", streamId));
    }

    /**
     * Creates partition {@code partition} of the stream's log (ids {@code [partition × size, (partition + 1) × size)})
     * unless it exists; creators of one partition take turns on an advisory lock held until the transaction ends.
     * Lock waits are the caller's to bound ({@link DdlLockTimeout}). True when this call created it.
     */
    public boolean createPartition(Connection connection, long streamId, long partition, long partitionSize)
            throws SQLException {
        String qualified = sql.schema() + ".message_log_" + streamId + "_" + partition;
        if (partitionExists(connection, qualified)) {
            return false;
        }
        try (BoundStatement lock = BoundStatement.prepare(connection, sql.statement("lock_partition_creation"));
             ResultSet locked = lock.bind("partition_name", qualified).query()) {
            locked.next();
        }
        if (partitionExists(connection, qualified)) {
            return false;
        }
        ddl(connection, sql.partitionStatement("create_partition", streamId, partition,
                partition * partitionSize, (partition + 1) * partitionSize));
        return true;
    }

    private boolean partitionExists(Connection connection, String qualified) throws SQLException {
        try (BoundStatement exists = BoundStatement.prepare(connection, sql.statement("partition_exists"))) {
            return exists.bind("partition_name", qualified).querySingle(row -> row.getBoolean("partition_exists"));
        }
    }

    /** The id the stream's sequence hands out next (ids drawn meanwhile by other sessions move it on). */
    public long nextMessageId(Connection connection, long streamId) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("sequence_last_value", streamId))) {
            return query.querySingle(row -> row.getBoolean("is_called")
                    ? row.getLong("last_value") + 1 : row.getLong("last_value"));
        }
    }

    private Optional<Stream> byName(Connection connection, String statement, String name) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement(statement))) {
            return query.bind("name", name).queryOne(StreamQueries::stream);
        }
    }

    private static BoundStatement bindSettings(BoundStatement statement, StreamSettings settings)
            throws SQLException {
        return statement.bind("retention_ttl_ns", settings.retentionTtl().toNanos())
                .bind("allow_drop_past_committed", settings.allowDropPastCommitted())
                .bind("idempotency_key_ttl_ns", settings.idempotencyKeyTtl().toNanos())
                .bind("empty_compaction_head_ttl_ns", settings.emptyCompactionHeadTtl().toNanos())
                .bind("delivery_log_mode", settings.deliveryLogMode().wireName())
                .bind("fence_warn_after_ns", settings.fenceWarnAfter().toNanos());
    }

    private static void ddl(Connection connection, Statement statement) throws SQLException {
        try (BoundStatement ddl = BoundStatement.prepare(connection, statement)) {
            ddl.update();
        }
    }

    private static Stream stream(ResultSet row) throws SQLException {
        return new Stream(row.getLong("id"), row.getString("name"), row.getLong("partition_size"),
                Duration.ofNanos(row.getLong("retention_ttl_ns")), row.getBoolean("allow_drop_past_committed"),
                Duration.ofNanos(row.getLong("idempotency_key_ttl_ns")),
                Duration.ofNanos(row.getLong("empty_compaction_head_ttl_ns")),
                DeliveryLogMode.fromWireName(row.getString("delivery_log_mode")),
                Duration.ofNanos(row.getLong("fence_warn_after_ns")),
                row.getTimestamp("created_at").toInstant(), row.getTimestamp("updated_at").toInstant());
    }
}
