package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;

import javax.sql.DataSource;

import io.sqlstreams.MessageMeta;

/**
 * The chaos lab's ledger, in a schema of its own beside the installation: {@code chaos_run} holds one row per
 * handler run (written at its start and completed at its finish, each in its own short transaction, with
 * {@code clock_timestamp()}), {@code chaos_fault} one row per fault the harness injected. A consumer process
 * writes runs; the harness writes faults and reads both ({@link ChaosVerdict}).
 *
 * <p>A write that fails is retried until {@link #WRITE_BUDGET} after the handler started, then given up: the
 * handler must end well within its timeout, or an overlap in the ledger could be a handler outliving its run
 * rather than the engine running a key twice. With the consumer's ledger pool (2 s to get a connection, 2 s
 * socket timeout) a handler's writes end within 9 s of its start, inside the 10 s timeout.
 *
 * <p>{@code chaos_effects} holds a transactional handler's effects ({@link HandlerMode#TRANSACTIONAL}): one row per
 * group and message, written through the connection the library lends the handler, so it commits with the
 * delivery's outcome or not at all; its primary key refuses a second row.
 */
final class RunLedger {
    /** How long after a handler's start its ledger writes are still tried (the timeout is 10 s). */
    static final Duration WRITE_BUDGET = Duration.ofSeconds(5);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);
    private static final Duration LAST_BACKOFF = Duration.ofMillis(500);

    /** One statement of a retried write. */
    @FunctionalInterface
    private interface Write {
        void run(Connection connection) throws SQLException;
    }

    private final DataSource dataSource;
    private final String schema;

    /**
     * @param dataSource where the ledger lives
     * @param schema     the ledger's schema (the harness's, never input)
     */
    RunLedger(DataSource dataSource, String schema) {
        this.dataSource = dataSource;
        this.schema = schema;
    }

    /** Creates the ledger's tables in its (existing, empty) schema. */
    void create() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + schema + ".chaos_run (run_id uuid PRIMARY KEY, message_id bigint NOT"
                    + " NULL, seq bigint NOT NULL, message_key text, policy text NOT NULL, process text NOT NULL,"
                    + " attempt int NOT NULL, started_at timestamptz NOT NULL DEFAULT clock_timestamp(), finished_at"
                    + " timestamptz, outcome text CHECK (outcome IN ('success', 'failure')))");
            statement.execute("CREATE INDEX ON " + schema + ".chaos_run (message_id)");
            statement.execute("CREATE TABLE " + schema + ".chaos_fault (id bigserial PRIMARY KEY, kind text NOT NULL,"
                    + " process text, detail text, at timestamptz NOT NULL DEFAULT clock_timestamp())");
            statement.execute("CREATE TABLE " + schema + ".chaos_effects (consumer_group text NOT NULL, message_id"
                    + " bigint NOT NULL, PRIMARY KEY (consumer_group, message_id))");
        }
    }

    String schema() {
        return schema;
    }

    /**
     * Records the start of a run of the current delivery by {@code process}. The row's id is chosen here, so a
     * retried insert whose first try did commit writes no second row.
     *
     * @param startNanos the handler's start ({@link System#nanoTime()}), from which the write budget runs
     * @return the run's id, for {@link #finish}
     */
    UUID start(MessageMeta meta, long seq, String process, long startNanos) throws SQLException, InterruptedException {
        UUID run = UUID.randomUUID();
        retrying(startNanos + WRITE_BUDGET.toNanos(), connection -> {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + schema + ".chaos_run"
                    + " (run_id, message_id, seq, message_key, policy, process, attempt) VALUES (?, ?, ?, ?, ?, ?, ?)"
                    + " ON CONFLICT (run_id) DO NOTHING")) {
                insert.setObject(1, run);
                insert.setLong(2, meta.messageId());
                insert.setLong(3, seq);
                insert.setString(4, meta.messageKey());
                insert.setString(5, meta.options().concurrency().wireName());
                insert.setString(6, process);
                insert.setInt(7, meta.attempt());
                insert.executeUpdate();
            }
        });
        return run;
    }

    /** Records the end of {@code run}: its outcome and {@code clock_timestamp()}. */
    void finish(UUID run, boolean success, long startNanos) throws SQLException, InterruptedException {
        retrying(startNanos + WRITE_BUDGET.toNanos(), connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE " + schema + ".chaos_run SET"
                    + " finished_at = clock_timestamp(), outcome = ? WHERE run_id = ? AND finished_at IS NULL")) {
                update.setString(1, success ? "success" : "failure");
                update.setObject(2, run);
                update.executeUpdate();
            }
        });
    }

    /**
     * Writes the effect of {@code meta}'s message for the lab's group through {@code lent}, the connection of the
     * library's transaction: no retry, no commit; a second effect of the message fails with a unique violation.
     */
    void effect(Connection lent, MessageMeta meta) throws SQLException {
        try (PreparedStatement insert = lent.prepareStatement("INSERT INTO " + schema + ".chaos_effects"
                + " (consumer_group, message_id) VALUES (?, ?)")) {
            insert.setString(1, ChaosGroup.GROUP);
            insert.setLong(2, meta.messageId());
            insert.executeUpdate();
        }
    }

    /**
     * Records a fault the harness injected, at the server's {@code clock_timestamp()} (the runs' clock). Retried
     * for as long as a restart may take: the faults come one at a time, so the server is up or coming back.
     */
    void recordFault(ChaosPlan.FaultKind kind, String process, String detail) throws SQLException,
            InterruptedException {
        Write insert = connection -> {
            try (PreparedStatement statement = connection.prepareStatement("INSERT INTO " + schema
                    + ".chaos_fault (kind, process, detail) VALUES (?, ?, ?)")) {
                statement.setString(1, kind.name().toLowerCase(Locale.ROOT));
                statement.setString(2, process);
                statement.setString(3, detail);
                statement.executeUpdate();
            }
        };
        retrying(System.nanoTime() + BenchServer.RESTART_TIMEOUT.toNanos(), insert);
    }

    /** Runs {@code write} in its own transaction (auto-commit) until it succeeds or {@code deadline} passes. */
    private void retrying(long deadline, Write write) throws SQLException, InterruptedException {
        long backoff = FIRST_BACKOFF.toNanos();
        while (true) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                write.run(connection);
                return;
            } catch (SQLException e) {
                if (System.nanoTime() + backoff > deadline) {
                    throw e;
                }
            }
            Thread.sleep(backoff / 1_000_000, (int) (backoff % 1_000_000));
            backoff = Math.min(backoff * 2, LAST_BACKOFF.toNanos());
        }
    }
}
