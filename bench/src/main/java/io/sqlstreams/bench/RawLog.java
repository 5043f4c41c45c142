package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

/**
 * A throwaway table shaped like the library's message log, for the raw-SQL baselines. Each measurement gets a
 * fresh one; closing drops it so a long run does not fill the disk.
 */
final class RawLog implements AutoCloseable {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final List<String> PAYLOADS = BenchPayload.json(1000);

    private final DataSource dataSource;
    private final String table;

    private RawLog(DataSource dataSource, String table) {
        this.dataSource = dataSource;
        this.table = table;
    }

    static RawLog create(DataSource dataSource, String schema) throws SQLException {
        RawLog log = new RawLog(dataSource, schema + ".raw_log_" + TABLES.incrementAndGet());
        log.execute("CREATE TABLE " + log.table + " (id bigserial PRIMARY KEY, schema_version int, routing_key text,"
                + " message_key text, payload jsonb NOT NULL, options jsonb, created_at timestamptz DEFAULT now())");
        return log;
    }

    /** The schema-qualified table name. */
    String table() {
        return table;
    }

    /**
     * Inserts batches of {@code batchSize} rows, one transaction each, on one connection until {@code deadlineNanos}
     * (at least one batch), calling {@code afterCommit} after each commit.
     *
     * @return the rows committed
     */
    long insertUntil(int batchSize, long deadlineNanos, Runnable afterCommit) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
                     + " (schema_version, payload) VALUES (1, ?::jsonb)")) {
            connection.setAutoCommit(false);
            long rows = 0;
            do {
                for (int i = 0; i < batchSize; i++) {
                    insert.setString(1, PAYLOADS.get((int) ((rows + i) % PAYLOADS.size())));
                    insert.addBatch();
                }
                insert.executeBatch();
                connection.commit();
                rows += batchSize;
                afterCommit.run();
            } while (System.nanoTime() < deadlineNanos);
            return rows;
        }
    }

    /** The ledger of a measurement whose writers committed {@code acknowledged} rows. */
    Ledger ledger(long acknowledged) throws SQLException {
        return Ledger.ofCounts(acknowledged, LedgerQueries.rowCount(dataSource, table));
    }

    /** Runs one statement of DDL or bookkeeping on this log's server. */
    void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @Override
    public void close() throws SQLException {
        execute("DROP TABLE IF EXISTS " + table);
    }
}
