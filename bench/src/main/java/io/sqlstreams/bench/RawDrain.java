package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

/**
 * The drain baseline: baseline (b)'s reader alone, draining a raw log pre-filled with {@code messages} rows. In
 * each transaction it locks the one-row cursor {@code FOR UPDATE}, reads the next N rows above it (id and payload),
 * advances it and commits, until a read finds nothing. The log is filled once; each repetition rewinds the cursor.
 */
final class RawDrain implements AutoCloseable {
    private static final int FILL_BATCH = 1000;
    private static final int FILL_THREADS = 2;

    private final DataSource dataSource;
    private final RawLog log;
    private final String cursor;
    private final long rows;

    private RawDrain(DataSource dataSource, RawLog log, String cursor, long rows) {
        this.dataSource = dataSource;
        this.log = log;
        this.cursor = cursor;
        this.rows = rows;
    }

    static String label(int readBatch, long messages) {
        return "raw cursor reader alone, N=" + readBatch + ", draining " + String.format("%,d", messages)
                + " pre-filled rows (msg/s)";
    }

    /** A raw log of {@code messages} committed rows (batches of 1000 from two connections) and its cursor. */
    static RawDrain fill(DataSource dataSource, String schema, long messages) throws Exception {
        RawLog log = RawLog.create(dataSource, schema);
        String cursor = log.table() + "_cursor";
        try {
            log.execute("CREATE TABLE " + cursor + " (id int PRIMARY KEY, position bigint NOT NULL)");
            log.execute("INSERT INTO " + cursor + " VALUES (1, 0)");
            List<String> payloads = BenchPayload.json(FILL_BATCH);
            AtomicLong next = new AtomicLong();
            Workers.Task<Long> filler = start -> {
                long written = 0;
                try (Connection connection = dataSource.getConnection();
                     PreparedStatement insert = connection.prepareStatement("INSERT INTO " + log.table()
                             + " (schema_version, payload) VALUES (1, ?::jsonb)")) {
                    connection.setAutoCommit(false);
                    while (true) {
                        long from = next.getAndAdd(FILL_BATCH);
                        if (from >= messages) {
                            return written;
                        }
                        int size = (int) Math.min(FILL_BATCH, messages - from);
                        for (int i = 0; i < size; i++) {
                            insert.setString(1, payloads.get(i));
                            insert.addBatch();
                        }
                        insert.executeBatch();
                        connection.commit();
                        written += size;
                    }
                }
            };
            long written = Workers.runTogether("raw-fill", java.time.Duration.ofSeconds(messages / 5_000 + 60),
                    java.util.Collections.nCopies(FILL_THREADS, filler)).values().stream()
                    .mapToLong(Long::longValue).sum();
            return new RawDrain(dataSource, log, cursor, written);
        } catch (Exception | Error e) {
            log.execute("DROP TABLE IF EXISTS " + cursor);
            log.close();
            throw e;
        }
    }

    /** One drain from the start of the log with reads of {@code readBatch} rows. */
    Sample drainOnce(int readBatch) throws SQLException {
        log.execute("UPDATE " + cursor + " SET position = 0 WHERE id = 1");
        long consumed = 0;
        long started;
        long ended;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement lock = connection.prepareStatement(
                     "SELECT position FROM " + cursor + " WHERE id = 1 FOR UPDATE");
             PreparedStatement next = connection.prepareStatement(
                     "SELECT id, payload FROM " + log.table() + " WHERE id > ? ORDER BY id LIMIT " + readBatch);
             PreparedStatement advance = connection.prepareStatement(
                     "UPDATE " + cursor + " SET position = ? WHERE id = 1")) {
            connection.setAutoCommit(false);
            started = System.nanoTime();
            while (true) {
                int read = CursorBaseline.readOnce(connection, lock, next, advance);
                if (read == 0) {
                    break;
                }
                consumed += read;
            }
            ended = System.nanoTime();
            connection.setAutoCommit(true);
        }
        long aboveCursor = LedgerQueries.scalar(dataSource, "SELECT count(*) FROM " + log.table()
                + " WHERE id > (SELECT position FROM " + cursor + " WHERE id = 1)");
        return new Sample(Map.of(Metric.THROUGHPUT, consumed / ((ended - started) / 1e9)),
                log.ledger(rows).withDelivery(consumed, aboveCursor));
    }

    long rows() {
        return rows;
    }

    @Override
    public void close() throws SQLException {
        log.execute("DROP TABLE IF EXISTS " + cursor);
        log.close();
    }
}
