package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import io.sqlstreams.MessageMeta;

/**
 * The table of one group's handler in the realistic shape (BENCHMARKS.md #9): every run inserts one row, in a
 * transaction of its own or in the library's ({@link HandlerForm}), with the message, its key and policy and the
 * process. The row also says whether another run of the same key in the same group was inside its own insert at that
 * moment: the insert tries a
 * transaction-scoped advisory lock on (lock space, key number) and never waits for it, so a held lock is a second run
 * of the key at once, in whichever process. A bigserial numbers the inserts in the order they happened, which for
 * the runs of one key, one at a time, is the order they ran.
 *
 * @param name      the table, schema-qualified (the harness's, never input)
 * @param lockSpace the first half of the advisory lock keys: one per group, so that two groups never meet on a key
 */
record WorkTable(String name, int lockSpace) {

    /**
     * What the rows say once the consumers have stopped.
     *
     * @param runs             rows: handler runs that completed their insert
     * @param orderedRuns      those of them under the ordered policy (the rest ran exclusive)
     * @param duplicates       rows of a message after its first
     * @param orderViolations  ordered messages whose first run came after the first run of a later message of the key
     * @param violatedKeys     ordered keys with at least one of those
     * @param overlaps         runs that found another run of their key inside its insert
     * @param overlappedKeys   keys with at least one of those
     */
    record Counts(long runs, long orderedRuns, long duplicates, long orderViolations, long violatedKeys,
                  long overlaps, long overlappedKeys) {
    }

    private static final String INSERT = "INSERT INTO {t} (id, message_key, policy, process, overlapped)"
            + " VALUES (?, ?, ?, ?, NOT pg_try_advisory_xact_lock(?, ?))";

    /** Each ordered message's first run, in insert order: {@code (id, message_key, s)}. */
    private static final String FIRSTS = "firsts AS (SELECT id, message_key, min(seq) AS s FROM {t}"
            + " WHERE policy = 'ordered' GROUP BY id, message_key)";
    private static final String LATE_FIRSTS = "WITH " + FIRSTS + ", w AS (SELECT message_key, s, min(s) OVER"
            + " (PARTITION BY message_key ORDER BY id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS later FROM"
            + " firsts) SELECT count(*), count(DISTINCT message_key) FROM w WHERE later < s";

    static WorkTable create(DataSource dataSource, String name, int lockSpace) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + name + " (seq bigserial PRIMARY KEY, id bigint NOT NULL, message_key"
                    + " text NOT NULL, policy text NOT NULL, process text NOT NULL, overlapped boolean NOT NULL)");
        }
        return new WorkTable(name, lockSpace);
    }

    /** The plain handler's work: one row for the current delivery, committed on its own. */
    void insert(DataSource dataSource, MessageMeta meta, String process) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            insert(connection, meta, process);
        }
    }

    /**
     * One row for {@code meta} on {@code connection}, in whatever transaction it is in. Inside the library's range
     * transaction the advisory lock is held until the range commits, so it also catches a run of the key that starts
     * before an earlier run's writes committed; a later message of the key in the same transaction takes the lock
     * again (it is its session's already) and is not flagged.
     */
    void insert(Connection connection, MessageMeta meta, String process) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT.replace("{t}", name))) {
            bind(insert, meta, process);
            insert.executeUpdate();
        }
    }

    /** A row for each of {@code metas}, in order, as one JDBC batch on {@code connection}. */
    void insertAll(Connection connection, List<MessageMeta> metas, String process) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT.replace("{t}", name))) {
            for (MessageMeta meta : metas) {
                bind(insert, meta, process);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private void bind(PreparedStatement insert, MessageMeta meta, String process) throws SQLException {
        insert.setLong(1, meta.messageId());
        insert.setString(2, meta.messageKey());
        insert.setString(3, meta.options().concurrency().wireName());
        insert.setString(4, process);
        insert.setInt(5, lockSpace);
        insert.setInt(6, ScaleKeys.number(meta.messageKey()));
    }

    /** Every message id a run inserted, ascending, repeats included. */
    long[] sortedIds(DataSource dataSource) throws SQLException {
        return LedgerQueries.sortedIds(dataSource, name);
    }

    Counts judge(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            long[] runs = row(statement, "SELECT count(*), count(*) FILTER (WHERE policy = 'ordered'), count(*)"
                    + " - count(DISTINCT id), count(*) FILTER (WHERE overlapped), count(DISTINCT message_key) FILTER"
                    + " (WHERE overlapped) FROM {t}");
            long[] late = row(statement, LATE_FIRSTS);
            return new Counts(runs[0], runs[1], runs[2], late[0], late[1], runs[3], runs[4]);
        }
    }

    private long[] row(Statement statement, String template) throws SQLException {
        try (ResultSet rows = statement.executeQuery(template.replace("{t}", name))) {
            rows.next();
            long[] values = new long[rows.getMetaData().getColumnCount()];
            for (int k = 0; k < values.length; k++) {
                values[k] = rows.getLong(k + 1);
            }
            return values;
        }
    }
}
