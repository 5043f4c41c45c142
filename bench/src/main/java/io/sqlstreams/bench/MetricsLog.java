package io.sqlstreams.bench;

import java.sql.SQLException;

import javax.sql.DataSource;

import io.sqlstreams.SqlStreams;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.metrics.SystemStreams;

/**
 * The message log of {@code __system.metrics}, where a collector pass records its measurements, one row each.
 *
 * @param dataSource the server
 * @param table      the log's table
 */
record MetricsLog(DataSource dataSource, String table) {

    /** The installation's metrics log; the stream must be registered (a collector pass registers it). */
    static MetricsLog of(SqlStreams client, DataSource dataSource) {
        Stream metrics = client.streams().stream().filter(stream -> stream.name().equals(SystemStreams.METRICS))
                .findFirst().orElseThrow(() -> new IllegalStateException(SystemStreams.METRICS + " is not registered"));
        return new MetricsLog(dataSource, BenchStream.logTable(client.config().schema(), metrics.id()));
    }

    long maxId() throws SQLException {
        return LedgerQueries.scalar(dataSource, "SELECT coalesce(max(id), 0) FROM " + table);
    }

    LedgerQueries.RowCount rowsAbove(long id) throws SQLException {
        return LedgerQueries.rowCountAbove(dataSource, table, id);
    }
}
