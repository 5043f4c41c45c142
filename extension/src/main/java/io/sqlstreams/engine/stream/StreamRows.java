package io.sqlstreams.engine.stream;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.Consumer;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.sql.Sql;

/** Reads stream rows and the rows that hang off them. */
public final class StreamRows {
    private final Sql sql;

    public StreamRows(Sql sql) {
        this.sql = sql;
    }

    public Optional<Stream> find(Connection connection, String name) throws SQLException {
        return one(connection, "stream_by_name", name);
    }

    /** The stream's row, locked until the transaction ends. */
    public Optional<Stream> lock(Connection connection, String name) throws SQLException {
        return one(connection, "lock_stream_by_name", name);
    }

    /** The stream's row, or SQL0005. */
    public Stream require(Connection connection, String name) throws SQLException {
        return find(connection, name).orElseThrow(() -> notFound(name));
    }

    public List<Stream> all(Connection connection) throws SQLException {
        List<Stream> streams = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement(sql.get("all_streams"));
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                streams.add(map(rows));
            }
        }
        return streams;
    }

    public List<Consumer> consumers(Connection connection, String streamName) throws SQLException {
        List<Consumer> consumers = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement(sql.get("consumers_of_stream"))) {
            query.setString(1, streamName);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    consumers.add(new Consumer(rows.getLong(1), rows.getString(2), rows.getString(3),
                            rows.getTimestamp(4).toInstant(), rows.getTimestamp(5).toInstant()));
                }
            }
        }
        return consumers;
    }

    public static SqlStreamsException notFound(String name) {
        return new SqlStreamsException(Code.SQL0005, "stream \"" + name + "\" is not registered");
    }

    private Optional<Stream> one(Connection connection, String statement, String name) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql.get(statement))) {
            query.setString(1, name);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() ? Optional.of(map(rows)) : Optional.empty();
            }
        }
    }

    private static Stream map(ResultSet row) throws SQLException {
        return new Stream(row.getLong(1), row.getString(2), row.getLong(3), Duration.ofNanos(row.getLong(4)),
                row.getBoolean(5), Duration.ofNanos(row.getLong(6)), Duration.ofNanos(row.getLong(7)),
                DeliveryLogMode.fromWireName(row.getString(8)), row.getTimestamp(9).toInstant(),
                row.getTimestamp(10).toInstant());
    }
}
