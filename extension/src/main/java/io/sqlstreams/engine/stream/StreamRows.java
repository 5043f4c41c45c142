package io.sqlstreams.engine.stream;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.Consumer;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.sql.Sql;

/** Stream rows by name for the handles, read through {@link StreamQueries}; SQL0005 for a stream not registered. */
public final class StreamRows {
    private final StreamQueries queries;

    public StreamRows(Sql sql) {
        this.queries = new StreamQueries(sql);
    }

    public Optional<Stream> find(Connection connection, String name) throws SQLException {
        return queries.find(connection, name);
    }

    /** The stream's row, locked until the transaction ends. */
    public Optional<Stream> lock(Connection connection, String name) throws SQLException {
        return queries.lock(connection, name);
    }

    /** The stream's row, or SQL0005. */
    public Stream require(Connection connection, String name) throws SQLException {
        return find(connection, name).orElseThrow(() -> notFound(name));
    }

    public List<Stream> all(Connection connection) throws SQLException {
        return queries.all(connection);
    }

    public List<Consumer> consumers(Connection connection, String streamName) throws SQLException {
        return queries.consumers(connection, streamName);
    }

    public static SqlStreamsException notFound(String name) {
        return new SqlStreamsException(Code.SQL0005, "stream \"" + name + "\" is not registered");
    }
}
