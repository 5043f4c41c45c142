package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The chaos lab's two-phase transactions, every one named with the run's prefix. PostgreSQL keeps a prepared
 * transaction through a dropped connection and a restart, so each is finished by its name from a connection of its
 * own, tried again while the server is away; what is still prepared at the end is counted and rolled back.
 */
final class PreparedTransactions {
    /** A prepared transaction not finished after this long fails the run: the server is not coming back. */
    static final Duration GIVE_UP = Duration.ofMinutes(3);
    private static final Duration RETRY_PAUSE = Duration.ofMillis(500);

    /** What {@link #finish} found. */
    enum Finish {
        /** It was prepared and is now committed or rolled back, at the first try. */
        FINISHED,
        /** The same, after tries that failed (the server was restarting). */
        FINISHED_AFTER_FAILURE,
        /** No such prepared transaction: never prepared, or already finished by a try whose answer was lost. */
        ABSENT
    }

    private final HolderConnections connections;
    private final String prefix;

    /** @param prefix the run's prefix of every global transaction id (letters, digits, underscores) */
    PreparedTransactions(HolderConnections connections, String prefix) {
        this.connections = connections;
        this.prefix = prefix;
    }

    /** Whether the server allows prepared transactions at all ({@code max_prepared_transactions} above 0). */
    static boolean allowed(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT current_setting('max_prepared_transactions')::int")) {
            row.next();
            return row.getInt(1) > 0;
        }
    }

    /** The global transaction id of the lab's transaction called {@code name}. */
    String gid(String name) {
        return prefix + name;
    }

    /** Prepares the open transaction of {@code connection} as {@code gid}; the connection is free afterwards. */
    static void prepare(Connection connection, String gid) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("PREPARE TRANSACTION '" + gid + "'");
        }
    }

    /** Commits ({@code commit}) or rolls back the prepared transaction {@code gid} if it is there. */
    Finish finish(String gid, boolean commit) throws InterruptedException {
        long deadline = System.nanoTime() + GIVE_UP.toNanos();
        boolean failed = false;
        while (true) {
            try (Connection connection = connections.open()) {
                if (!isPrepared(connection, gid)) {
                    return Finish.ABSENT;
                }
                try (Statement statement = connection.createStatement()) {
                    statement.execute((commit ? "COMMIT" : "ROLLBACK") + " PREPARED '" + gid + "'");
                }
                return failed ? Finish.FINISHED_AFTER_FAILURE : Finish.FINISHED;
            } catch (SQLException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the prepared transaction " + gid + " could not be finished"
                            + " within " + GIVE_UP, e);
                }
                failed = true;
            }
            Thread.sleep(RETRY_PAUSE.toMillis());
        }
    }

    /** The lab's transactions still prepared. */
    List<String> left() throws SQLException {
        List<String> gids = new ArrayList<>();
        try (Connection connection = connections.open();
             PreparedStatement select = connection.prepareStatement("SELECT gid FROM pg_prepared_xacts WHERE"
                     + " starts_with(gid, ?) ORDER BY gid")) {
            select.setString(1, prefix);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    gids.add(rows.getString(1));
                }
            }
        }
        return gids;
    }

    /** Rolls back every transaction {@link #left()} names. */
    void rollBackLeft() throws SQLException, InterruptedException {
        for (String gid : left()) {
            finish(gid, false);
        }
    }

    private static boolean isPrepared(Connection connection, String gid) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT 1 FROM pg_prepared_xacts WHERE gid = ?")) {
            select.setString(1, gid);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        }
    }
}
