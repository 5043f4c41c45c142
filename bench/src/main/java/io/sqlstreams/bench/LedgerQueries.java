package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/** The reads a ledger is built from. Table names come from the harness itself, never from input. */
final class LedgerQueries {

    /** A table's {@code count(*)} and {@code count(DISTINCT id)}. */
    record RowCount(long stored, long distinct) {
    }

    private LedgerQueries() {
    }

    static RowCount rowCount(DataSource dataSource, String table) throws SQLException {
        return counts(dataSource, "SELECT count(*), count(DISTINCT id) FROM " + table);
    }

    /** {@link #rowCount} of the rows of {@code table} whose id is above {@code id}. */
    static RowCount rowCountAbove(DataSource dataSource, String table, long id) throws SQLException {
        return counts(dataSource, "SELECT count(*), count(DISTINCT id) FROM " + table + " WHERE id > " + id);
    }

    private static RowCount counts(DataSource dataSource, String query) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(query)) {
            row.next();
            return new RowCount(row.getLong(1), row.getLong(2));
        }
    }

    /** Every id of {@code table}, ascending. */
    static long[] sortedIds(DataSource dataSource, String table) throws SQLException {
        LongList ids = new LongList(1 << 16);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false); // lets the driver stream the rows in fetch-size chunks
            try (Statement statement = connection.createStatement()) {
                statement.setFetchSize(10_000);
                try (ResultSet rows = statement.executeQuery("SELECT id FROM " + table + " ORDER BY id")) {
                    while (rows.next()) {
                        ids.add(rows.getLong(1));
                    }
                }
            }
            connection.commit();
        }
        return ids.toArray();
    }

    /** The single number {@code query} answers. */
    static long scalar(DataSource dataSource, String query) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(query)) {
            row.next();
            return row.getLong(1);
        }
    }

    /** The single text {@code query} answers. */
    static String text(DataSource dataSource, String query) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(query)) {
            row.next();
            return row.getString(1);
        }
    }
}
