package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.sqlstreams.DestroyOptions;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;

/**
 * A stream registered for one measurement (default settings, {@link BenchPayload} payloads) with the tables the
 * harness reads directly: its message log, for the ledger and the head, its groups' cursor table, for the
 * backlog, and their exception rows, for the dead letters. Closing destroys it with everything in it.
 */
final class BenchStream implements AutoCloseable {
    private static final AtomicInteger NAMES = new AtomicInteger();

    private final StreamHandle<BenchPayload> handle;
    private final DataSource dataSource;
    private final long id;
    private final String logTable;
    private final String cursorTable;
    private final String exceptionTable;

    private BenchStream(StreamHandle<BenchPayload> handle, DataSource dataSource, String schema, long id) {
        this.handle = handle;
        this.dataSource = dataSource;
        this.id = id;
        this.logTable = logTable(schema, id);
        this.cursorTable = schema + ".consumer_group_cursor_" + id;
        this.exceptionTable = schema + ".exception_queue_" + id;
    }

    /** Registers a fresh stream called {@code bench.<kind>.<n>} through {@code client}. */
    static BenchStream register(SqlStreams client, DataSource dataSource, String schema, String kind) {
        return register(client, dataSource, schema, kind, StreamConfig.defaults());
    }

    /** Registers a fresh stream called {@code bench.<kind>.<n>} with {@code config} through {@code client}. */
    static BenchStream register(SqlStreams client, DataSource dataSource, String schema, String kind,
                                StreamConfig config) {
        StreamHandle<BenchPayload> handle = client.stream("bench." + kind + "." + NAMES.incrementAndGet(),
                BenchPayload.class);
        handle.register(config);
        return new BenchStream(handle, dataSource, schema, handle.get().orElseThrow().id());
    }

    /** The message log of stream {@code id} of the installation in {@code schema}. */
    static String logTable(String schema, long id) {
        return schema + ".message_log_" + id;
    }

    String name() {
        return handle.name();
    }

    StreamHandle<BenchPayload> handle() {
        return handle;
    }

    long id() {
        return id;
    }

    String logTable() {
        return logTable;
    }

    /** Its groups' exception rows (see the engine's exception.sql). */
    String exceptionTable() {
        return exceptionTable;
    }

    LedgerQueries.RowCount rows() throws SQLException {
        return LedgerQueries.rowCount(dataSource, logTable);
    }

    long[] storedIds() throws SQLException {
        return LedgerQueries.sortedIds(dataSource, logTable);
    }

    /** head − committed of the stream's only group, read in one statement on {@code connection}. */
    long backlog(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT (SELECT coalesce(max(id), 0) FROM " + logTable
                     + ") - (SELECT coalesce(min(committed), 0) FROM " + cursorTable + ")")) {
            row.next();
            return row.getLong(1);
        }
    }

    @Override
    public void close() {
        handle.destroy(DestroyOptions.forced());
    }
}
