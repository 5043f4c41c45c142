package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * What the catalogue and the statistics views say about one stream's tables and the installation's shared ones:
 * partition counts, on-disk sizes ({@code pg_total_relation_size}: heap, indexes and TOAST) and dead tuples
 * ({@code pg_stat_user_tables.n_dead_tup}, as the statistics last flushed it). A table that does not exist reads
 * as empty. Table names come from the harness, never from input.
 */
final class FamilyStats {

    /** A table's, or a table family's, size and dead tuples. */
    record TableFigures(long bytes, long deadTuples) {
    }

    /** The message log's partitions: how many, and their figures summed. */
    record Partitions(long count, TableFigures figures) {
    }

    private final String schema;
    private final long streamId;

    FamilyStats(String schema, long streamId) {
        this.schema = schema;
        this.streamId = streamId;
    }

    /** {@code <schema>.<kind>_<stream id>}, e.g. {@code exception_queue} → {@code bench_x.exception_queue_3}. */
    String streamTable(String kind) {
        return schema + "." + kind + "_" + streamId;
    }

    /** {@code <schema>.<name>}, a table the installation shares. */
    String sharedTable(String name) {
        return schema + "." + name;
    }

    Partitions partitions(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT count(*),"
                + " coalesce(sum(pg_total_relation_size(i.inhrelid)), 0), coalesce(sum(s.n_dead_tup), 0)"
                + " FROM pg_inherits i LEFT JOIN pg_stat_user_tables s ON s.relid = i.inhrelid"
                + " WHERE i.inhparent = to_regclass(?)")) {
            statement.setString(1, streamTable("message_log"));
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return new Partitions(row.getLong(1), new TableFigures(row.getLong(2), row.getLong(3)));
            }
        }
    }

    TableFigures table(Connection connection, String table) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_total_relation_size(c.oid),"
                + " coalesce(s.n_dead_tup, 0) FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid"
                + " WHERE c.oid = to_regclass(?)")) {
            statement.setString(1, table);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? new TableFigures(row.getLong(1), row.getLong(2)) : new TableFigures(0, 0);
            }
        }
    }

    /** The newest id in the log; 0 when it is empty. */
    long head(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT coalesce(max(id), 0) FROM "
                + streamTable("message_log"));
             ResultSet row = statement.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    /** head − the committed cursor of {@code group}, in messages. */
    long lag(Connection connection, String group) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT (SELECT coalesce(max(id), 0) FROM "
                + streamTable("message_log") + ") - c.committed FROM " + streamTable("consumer_group_cursor")
                + " c JOIN " + sharedTable("consumer_group_config") + " g ON g.id = c.consumer_group_id"
                + " WHERE g.name = ?")) {
            statement.setString(1, group);
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException("group " + group + " has no cursor in "
                            + streamTable("consumer_group_cursor"));
                }
                return row.getLong(1);
            }
        }
    }
}
