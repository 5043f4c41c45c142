package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

/**
 * Baseline (b): the raw log + cursor loop. One producer inserts batches of {@value #PRODUCER_BATCH} (as in
 * baseline (a)) while one reader, in each transaction, locks a one-row cursor {@code FOR UPDATE}, reads the next
 * {@value #READ_BATCH} rows above it (id and payload), advances it and commits. When it finds nothing it waits for
 * the producer's next commit; after the producer stops it drains what is left. Produced and consumed rates are
 * each over their own thread's time.
 */
final class CursorBaseline {
    static final int PRODUCER_BATCH = 100;
    static final int READ_BATCH = 100;
    static final String LABEL = "raw log + cursor, 1 producer (batch " + PRODUCER_BATCH + ") + 1 reader (N="
            + READ_BATCH + ") (msg/s)";

    private final DataSource dataSource;
    private final String schema;
    private final Duration measurement;

    CursorBaseline(DataSource dataSource, String schema, Duration measurement) {
        this.dataSource = dataSource;
        this.schema = schema;
        this.measurement = measurement;
    }

    Sample measureOnce() throws Exception {
        try (RawLog log = RawLog.create(dataSource, schema)) {
            String cursor = log.table() + "_cursor";
            log.execute("CREATE TABLE " + cursor + " (id int PRIMARY KEY, position bigint NOT NULL)");
            try {
                log.execute("INSERT INTO " + cursor + " VALUES (1, 0)");
                return measure(log, cursor);
            } finally {
                log.execute("DROP TABLE IF EXISTS " + cursor);
            }
        }
    }

    private Sample measure(RawLog log, String cursor) throws Exception {
        CommitSignal signal = new CommitSignal();
        Workers.Task<Long> producer = start -> {
            try {
                return log.insertUntil(PRODUCER_BATCH, start + measurement.toNanos(), signal::committed);
            } finally {
                signal.finish();
            }
        };
        Workers.Task<Long> reader = start -> read(log.table(), cursor, signal);
        Workers.Outcome<Long> outcome = Workers.runTogether("log-cursor", measurement, List.of(producer, reader));
        long produced = outcome.value(0);
        long consumed = outcome.value(1);
        long aboveCursor = LedgerQueries.scalar(dataSource, "SELECT count(*) FROM " + log.table()
                + " WHERE id > (SELECT position FROM " + cursor + " WHERE id = 1)");
        return new Sample(Map.of(Metric.THROUGHPUT, produced / outcome.seconds(0),
                Metric.CONSUMED, consumed / outcome.seconds(1)),
                log.ledger(produced).withDelivery(consumed, aboveCursor));
    }

    private long read(String table, String cursor, CommitSignal signal) throws SQLException, InterruptedException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement lock = connection.prepareStatement(
                     "SELECT position FROM " + cursor + " WHERE id = 1 FOR UPDATE");
             PreparedStatement next = connection.prepareStatement(
                     "SELECT id, payload FROM " + table + " WHERE id > ? ORDER BY id LIMIT " + READ_BATCH);
             PreparedStatement advance = connection.prepareStatement(
                     "UPDATE " + cursor + " SET position = ? WHERE id = 1")) {
            connection.setAutoCommit(false);
            long consumed = 0;
            while (true) {
                long seen = signal.commits();
                boolean producerDone = signal.finished();
                int read = readOnce(connection, lock, next, advance);
                consumed += read;
                if (read == 0) {
                    if (producerDone) {
                        return consumed;
                    }
                    signal.awaitCommitAfter(seen);
                }
            }
        }
    }

    /** One reader transaction: lock the cursor, read the next rows above it, advance it, commit; returns the rows read. */
    static int readOnce(Connection connection, PreparedStatement lock, PreparedStatement next,
                                PreparedStatement advance) throws SQLException {
        long position;
        try (ResultSet row = lock.executeQuery()) {
            row.next();
            position = row.getLong(1);
        }
        int read = 0;
        next.setLong(1, position);
        try (ResultSet rows = next.executeQuery()) {
            while (rows.next()) {
                position = rows.getLong(1);
                rows.getString(2); // taken off the wire like a consumer would, then dropped
                read++;
            }
        }
        if (read > 0) {
            advance.setLong(1, position);
            advance.executeUpdate();
        }
        connection.commit();
        return read;
    }
}
