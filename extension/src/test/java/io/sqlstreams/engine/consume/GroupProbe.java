package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.testing.TestDatabase;

/**
 * Read and poke SQL for the consumer group tests, on one test class's installation schema: {@code {schema}}
 * in a statement becomes the schema, stream family tables are named with the stream id, every value is bound.
 */
final class GroupProbe {
    /** A group's two worker rows, in the order {@code workers()} lists them (by name). */
    static final List<String> WORKER_NAMES = List.of("exception_consumer", "message_consumer");

    private final TestDatabase database;

    GroupProbe(TestDatabase database) {
        this.database = database;
    }

    /** The first column of the first row as text, or null without a row. */
    String text(String sql, Object... arguments) throws SQLException {
        List<List<String>> rows = rows(sql, arguments);
        return rows.isEmpty() ? null : rows.get(0).get(0);
    }

    long count(String sql, Object... arguments) throws SQLException {
        return Long.parseLong(text(sql, arguments));
    }

    boolean bool(String sql, Object... arguments) throws SQLException {
        return "t".equals(text(sql, arguments));
    }

    /** Every row, every column as text. */
    List<List<String>> rows(String sql, Object... arguments) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement(expand(sql))) {
            bind(statement, arguments);
            List<List<String>> values = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                int width = rows.getMetaData().getColumnCount();
                while (rows.next()) {
                    List<String> row = new ArrayList<>(width);
                    for (int column = 1; column <= width; column++) {
                        row.add(rows.getString(column));
                    }
                    values.add(row);
                }
            }
            return values;
        }
    }

    int update(String sql, Object... arguments) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement(expand(sql))) {
            bind(statement, arguments);
            return statement.executeUpdate();
        }
    }

    /** True when two JSON texts are the same document (compared as jsonb: key order and spacing ignored). */
    boolean sameJson(String a, String b) throws SQLException {
        return bool("SELECT ?::jsonb = ?::jsonb", a, b);
    }

    /** Rows of a stream family table ({@code prefix_<streamId>}) that belong to one group. */
    long groupRows(String prefix, long streamId, long groupId) throws SQLException {
        return count("SELECT count(*) FROM {schema}." + prefix + "_" + streamId + " WHERE consumer_group_id = ?",
                groupId);
    }

    /** The group's cursor as [claimed, committed, settled_head, pending_head], or null without a cursor row. */
    List<Long> cursor(long streamId, long groupId) throws SQLException {
        List<List<String>> rows = rows("SELECT claimed, committed, settled_head, pending_head FROM"
                + " {schema}.consumer_group_cursor_" + streamId + " WHERE consumer_group_id = ?", groupId);
        return rows.isEmpty() ? null : rows.get(0).stream().map(Long::parseLong).toList();
    }

    /** The group's worker rows as [name, metadata, target_instances], ordered by name. */
    List<List<String>> workers(long groupId) throws SQLException {
        return rows("SELECT name, metadata::text, target_instances::text FROM {schema}.worker_config"
                + " WHERE consumer_group_id = ? ORDER BY name", groupId);
    }

    /** Snapshots in worker_config_log for the group's worker {@code worker}. */
    long configLog(long groupId, String worker) throws SQLException {
        return count("SELECT count(*) FROM {schema}.worker_config_log l JOIN {schema}.worker_config w"
                + " ON w.id = l.worker_id WHERE w.consumer_group_id = ? AND w.name = ?", groupId, worker);
    }

    /** worker_config_log rows of every group worker in the schema. */
    long allConfigLog() throws SQLException {
        return count("SELECT count(*) FROM {schema}.worker_config_log l JOIN {schema}.worker_config w"
                + " ON w.id = l.worker_id WHERE w.consumer_group_id IS NOT NULL");
    }

    /** Group rows and group worker rows in the whole schema: what a rejected register must not change. */
    List<Long> groupFootprint() throws SQLException {
        return List.of(count("SELECT count(*) FROM {schema}.consumer_group_config"),
                count("SELECT count(*) FROM {schema}.worker_config WHERE consumer_group_id IS NOT NULL"),
                allConfigLog());
    }

    /** The group's liveness rows as [worker name, instance id, expires_at in epoch microseconds]. */
    List<List<String>> instances(long groupId) throws SQLException {
        return rows("SELECT w.name, i.id::text, (extract(epoch FROM i.expires_at) * 1000000)::bigint::text"
                + " FROM {schema}.worker_instance i JOIN {schema}.worker_config w ON w.id = i.worker_id"
                + " WHERE w.consumer_group_id = ? ORDER BY w.name, i.id", groupId);
    }

    private String expand(String sql) {
        return sql.replace("{schema}", database.schema());
    }

    private static void bind(PreparedStatement statement, Object... arguments) throws SQLException {
        for (int i = 0; i < arguments.length; i++) {
            statement.setObject(i + 1, arguments[i]);
        }
    }
}
