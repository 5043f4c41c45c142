package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/**
 * A table of message ids that processes of their own write and the harness reads (the ids a producer process was
 * acknowledged, the ids a consumer process handled), so nothing but PostgreSQL rows carries a ledger between JVMs.
 * One row per id and writer; an id written twice is there twice.
 *
 * @param name the table, schema-qualified (the harness's, never input)
 */
record IdTable(String name) {
    private static final int BATCH = 5_000;

    /** Creates the table {@code name}. */
    static IdTable create(DataSource dataSource, String name) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + name + " (id bigint NOT NULL, process text NOT NULL)");
        }
        return new IdTable(name);
    }

    /** Appends {@code ids}, written by {@code process}, in one transaction. */
    void append(DataSource dataSource, String process, long[] ids) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + name
                    + " (id, process) VALUES (?, ?)")) {
                for (int i = 0; i < ids.length; i++) {
                    insert.setLong(1, ids[i]);
                    insert.setString(2, process);
                    insert.addBatch();
                    if ((i + 1) % BATCH == 0) {
                        insert.executeBatch();
                    }
                }
                insert.executeBatch();
            }
            connection.commit();
        }
    }

    /** Every id, ascending, repeats included. */
    long[] sortedIds(DataSource dataSource) throws SQLException {
        return LedgerQueries.sortedIds(dataSource, name);
    }
}
