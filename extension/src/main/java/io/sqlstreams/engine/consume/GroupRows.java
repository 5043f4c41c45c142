package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.Consumer;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Worker;
import io.sqlstreams.engine.sql.Sql;

/** Reads consumer group rows and their workers. */
final class GroupRows {
    static final String MESSAGE_CONSUMER = "message_consumer";
    static final String EXCEPTION_CONSUMER = "exception_consumer";

    private final Sql sql;

    GroupRows(Sql sql) {
        this.sql = sql;
    }

    Optional<Consumer> find(Connection connection, String stream, String group) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql.get("group_by_name"))) {
            query.setString(1, stream);
            query.setString(2, group);
            try (ResultSet row = query.executeQuery()) {
                return row.next()
                        ? Optional.of(new Consumer(row.getLong(1), row.getString(2), row.getString(3),
                        row.getTimestamp(4).toInstant(), row.getTimestamp(5).toInstant()))
                        : Optional.empty();
            }
        }
    }

    Consumer require(Connection connection, String stream, String group) throws SQLException {
        return find(connection, stream, group).orElseThrow(() -> notFound(stream, group));
    }

    List<Worker> workers(Connection connection, long groupId) throws SQLException {
        List<Worker> workers = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement(sql.get("group_workers"))) {
            query.setLong(1, groupId);
            try (ResultSet row = query.executeQuery()) {
                while (row.next()) {
                    workers.add(new Worker(row.getLong(1), row.getString(2), row.getString(3), row.getInt(4),
                            row.getInt(5), row.getTimestamp(6).toInstant(), row.getTimestamp(7).toInstant()));
                }
            }
        }
        return workers;
    }

    /** The stored declaration document of the group's message consumer, or null before the first register. */
    String declaration(Connection connection, long groupId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql.get("group_worker_metadata"))) {
            query.setLong(1, groupId);
            query.setString(2, MESSAGE_CONSUMER);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getString(2) : null;
            }
        }
    }

    static SqlStreamsException notFound(String stream, String group) {
        return new SqlStreamsException(Code.SQL0014, "consumer group \"" + group + "\" is not registered on stream \""
                + stream + "\"");
    }
}
