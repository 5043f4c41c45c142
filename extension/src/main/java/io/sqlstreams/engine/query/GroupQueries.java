package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.Consumer;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/**
 * A consumer group's rows: {@code consumer_group_config}, its cursor, and what the group verbs read about it
 * (live instances, pending deliveries, exception counts) or delete with it.
 */
public final class GroupQueries {
    /** Where a group's cursor stands, against the stream's head, and how many range leases are open. */
    public record CursorPosition(long head, long claimed, long committed, int openLeases) {
    }

    private final Sql sql;

    /** SQL0014: the stream has no group of that name. */
    public static SqlStreamsException notFound(String stream, String group) {
        return new SqlStreamsException(Code.SQL0014, "consumer group \"" + group + "\" is not registered on stream \""
                + stream + "\"");
    }

    public GroupQueries(Sql sql) {
        this.sql = sql;
    }

    /** The new group's id, or empty when a group of that name already exists on the stream. */
    public Optional<Long> insert(Connection connection, long streamId, String name) throws SQLException {
        try (BoundStatement insert = BoundStatement.prepare(connection, sql.statement("insert_group"))) {
            return insert.bind("stream_id", streamId).bind("name", name).queryOne(row -> row.getLong("id"));
        }
    }

    /** Locks the existing group of that name on the stream; its id. */
    public long lock(Connection connection, long streamId, String name) throws SQLException {
        try (BoundStatement lock = BoundStatement.prepare(connection, sql.statement("lock_group"))) {
            return lock.bind("stream_id", streamId).bind("name", name).querySingle(row -> row.getLong("id"));
        }
    }

    /** Locks the group's row, so that writers of its bindings take turns. */
    public void lock(Connection connection, long groupId) throws SQLException {
        try (BoundStatement lock = BoundStatement.prepare(connection, sql.statement("lock_group_by_id"))) {
            lock.bind("consumer_group_id", groupId).query().close();
        }
    }

    /** Places a new group's cursor before the stream's first message. */
    public void insertCursorAtBeginning(Connection connection, long streamId, long groupId) throws SQLException {
        try (BoundStatement insert = BoundStatement.prepare(connection,
                sql.streamStatement("insert_cursor_at_beginning", streamId))) {
            insert.bind("consumer_group_id", groupId).update();
        }
    }

    /** Places a new group's cursor at the stream's head; the committed position it starts from. */
    public long insertCursorAtHead(Connection connection, long streamId, long groupId) throws SQLException {
        try (BoundStatement insert = BoundStatement.prepare(connection,
                sql.streamStatement("insert_cursor_at_head", streamId))) {
            return insert.bind("consumer_group_id", groupId).querySingle(row -> row.getLong("committed"));
        }
    }

    public Optional<Consumer> find(Connection connection, String streamName, String name) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("group_by_name"))) {
            return query.bind("stream_name", streamName).bind("name", name).queryOne(row -> new Consumer(
                    row.getLong("id"), row.getString("stream_name"), row.getString("name"),
                    row.getTimestamp("created_at").toInstant(), row.getTimestamp("updated_at").toInstant()));
        }
    }

    public CursorPosition cursor(Connection connection, long streamId, long groupId) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("inspect_group", streamId))) {
            return query.bind("consumer_group_id", groupId).querySingle(row -> new CursorPosition(row.getLong("head"),
                    row.getLong("claimed"), row.getLong("committed"), row.getInt("open_leases")));
        }
    }

    /** How many of the group's exception-queue rows are in each status; absent statuses have none. */
    public Map<ExceptionStatus, Long> exceptionCounts(Connection connection, long streamId, long groupId)
            throws SQLException {
        Map<ExceptionStatus, Long> counts = new EnumMap<>(ExceptionStatus.class);
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("exception_counts", streamId))) {
            try (ResultSet rows = query.bind("consumer_group_id", groupId).query()) {
                while (rows.next()) {
                    counts.put(ExceptionStatus.fromColumn(rows.getString("status")), rows.getLong("row_count"));
                }
            }
        }
        return counts;
    }

    /**
     * The group's live consuming instances ({@code message_consumer} and {@code exception_consumer} rows), not
     * counting {@code excluded} (worker-instance ids).
     */
    public long liveInstancesExcept(Connection connection, long groupId, List<Long> excluded) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("group_live_instances_except"))) {
            return query.bind("consumer_group_id", groupId)
                    .bindArray("except_instances", "int8", excluded.toArray())
                    .querySingle(row -> row.getLong("live_instances"));
        }
    }

    /** Whether the group has exception-queue rows (retries or dead letters). */
    public boolean hasDeliveries(Connection connection, long streamId, long groupId) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("group_has_deliveries", streamId))) {
            return query.bind("consumer_group_id", groupId).querySingle(row -> row.getBoolean("has_deliveries"));
        }
    }

    /** Deletes the group with its exception queue, delivery log, range leases and key leases. */
    public void delete(Connection connection, long streamId, long groupId) throws SQLException {
        try (BoundStatement delete = BoundStatement.prepare(connection,
                sql.streamStatement("delete_group_deliveries", streamId))) {
            delete.bind("consumer_group_id", groupId).update();
        }
    }
}
