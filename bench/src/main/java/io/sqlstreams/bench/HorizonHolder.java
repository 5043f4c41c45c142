package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;

/**
 * A transaction that holds the server's xmin horizon where it is, left open until {@link #close()} ends it:
 * {@code BEGIN ISOLATION LEVEL REPEATABLE READ;} and a first statement on a connection of its own, in this
 * database or another one of the server, or prepared (two-phase) and left behind, or a transaction that has produced
 * into the measured stream. While it is open no row version deleted or updated after it began can be vacuumed away,
 * anywhere on the server.
 */
final class HorizonHolder implements AutoCloseable {
    static final String GLOBAL_ID = "sqlstreams_bench_mvcc";

    /** What the transaction's first statement takes besides its snapshot. */
    enum Kind {
        /** {@code SELECT txid_current()}: a transaction id too, so it also counts as a running transaction. */
        XID("xid", "SELECT txid_current()"),
        /** {@code SELECT 0}: only the snapshot, which holds the horizon without a transaction id. */
        SNAPSHOT("snapshot", "SELECT 0");

        private final String flag;
        private final String statement;

        Kind(String flag, String statement) {
            this.flag = flag;
            this.statement = statement;
        }

        String flag() {
            return flag;
        }

        String statement() {
            return statement;
        }
    }

    /** Where the transaction runs and what it did, as {@code --holder} names it. */
    enum Place {
        /** An unrelated transaction of the measured database, idle after its first statement. */
        SAME_DATABASE("same-database", "an unrelated transaction in the measured database"),
        /** The same in another database of the server, created for the run and dropped after it. */
        OTHER_DATABASE("other-database", "an unrelated transaction in another database of the server"),
        /** An unrelated transaction prepared with PREPARE TRANSACTION and left behind, as a JTA manager can. */
        PREPARED("prepared", "an unrelated prepared (two-phase) transaction"),
        /** A transaction that produced one message into the measured stream and stays open: it holds that stream. */
        PRODUCER("producer", "an open transaction that produced into the measured stream");

        private final String flag;
        private final String description;

        Place(String flag, String description) {
            this.flag = flag;
            this.description = description;
        }

        String flag() {
            return flag;
        }

        String description() {
            return description;
        }
    }

    private final Connection connection;
    private final long xid;
    private final Runnable afterClose;
    private final Ending ending;
    private boolean closed;

    /** How the holder's transaction ends: a rollback on its own connection, or ROLLBACK PREPARED on another. */
    @FunctionalInterface
    private interface Ending {
        void end(Connection connection) throws SQLException;
    }

    private HorizonHolder(Connection connection, long xid, Ending ending, Runnable afterClose) {
        this.connection = connection;
        this.xid = xid;
        this.ending = ending;
        this.afterClose = afterClose;
    }

    /**
     * Opens the holder; {@code stream} is what a {@link Place#PRODUCER} produces into. A prepared holder needs
     * {@code max_prepared_transactions} above 0 and a transaction id ({@link Kind#XID}).
     */
    static HorizonHolder open(BenchServer server, Kind kind, Place place, StreamHandle<BenchPayload> stream)
            throws SQLException {
        return switch (place) {
            case SAME_DATABASE -> begin(server.dataSource().getConnection(), kind, HorizonHolder::rollBack, () -> { });
            case OTHER_DATABASE -> inOtherDatabase(server, kind);
            case PREPARED -> prepared(server.dataSource(), kind);
            case PRODUCER -> producing(server.dataSource(), kind, stream);
        };
    }

    /** The transaction id it holds; 0 for {@link Kind#SNAPSHOT}. */
    long xid() {
        return xid;
    }

    /** Ends the transaction, releasing the horizon; closing twice does nothing more. */
    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            ending.end(connection);
        } finally {
            connection.close();
            afterClose.run();
        }
    }

    private static HorizonHolder begin(Connection connection, Kind kind, Ending ending, Runnable afterClose)
            throws SQLException {
        try {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (Statement statement = connection.createStatement();
                 ResultSet row = statement.executeQuery(kind.statement())) {
                row.next();
                return new HorizonHolder(connection, row.getLong(1), ending, afterClose);
            }
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private static void rollBack(Connection connection) throws SQLException {
        connection.rollback();
        connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        connection.setAutoCommit(true);
    }

    private static HorizonHolder inOtherDatabase(BenchServer server, Kind kind) throws SQLException {
        String database = GLOBAL_ID + "_other";
        execute(server.dataSource(), "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        execute(server.dataSource(), "CREATE DATABASE " + database);
        Runnable drop = () -> {
            try {
                execute(server.dataSource(), "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            } catch (SQLException e) {
                throw new IllegalStateException("cannot drop the holder's database " + database, e);
            }
        };
        return begin(DriverManager.getConnection(server.jdbcUrlFor(database)), kind, HorizonHolder::rollBack, drop);
    }

    private static HorizonHolder prepared(DataSource dataSource, Kind kind) throws SQLException {
        if (kind != Kind.XID) {
            throw new IllegalArgumentException("--holder prepared needs --horizon xid: a transaction without a"
                    + " transaction id cannot be prepared and left behind");
        }
        int allowed = Integer.parseInt(LedgerQueries.text(dataSource, "SELECT current_setting('max_prepared_transactions')"));
        if (allowed == 0) {
            throw new IllegalStateException("--holder prepared needs max_prepared_transactions above 0 on the measured"
                    + " server (the embedded one has it)");
        }
        execute(dataSource, "ROLLBACK PREPARED '" + GLOBAL_ID + "'", "42704");
        Connection connection = dataSource.getConnection();
        HorizonHolder open = begin(connection, kind, prepared -> {
            rollBack(prepared);
            execute(dataSource, "ROLLBACK PREPARED '" + GLOBAL_ID + "'");
        }, () -> { });
        try (Statement statement = connection.createStatement()) {
            statement.execute("PREPARE TRANSACTION '" + GLOBAL_ID + "'");
        } catch (SQLException | RuntimeException e) {
            open.close();
            throw e;
        }
        return open;
    }

    private static HorizonHolder producing(DataSource dataSource, Kind kind, StreamHandle<BenchPayload> stream)
            throws SQLException {
        HorizonHolder open = begin(dataSource.getConnection(), kind, HorizonHolder::rollBack, () -> { });
        try (Producer<BenchPayload> producer = stream.producer().register()) {
            producer.produce(open.connection, BenchPayload.next(0), ProduceOptions.none());
        } catch (RuntimeException e) {
            open.close();
            throw e;
        }
        return open;
    }

    private static void execute(DataSource dataSource, String sql) throws SQLException {
        execute(dataSource, sql, null);
    }

    /** Runs {@code sql} in auto-commit; a failure with {@code ignoredState} (e.g. nothing to roll back) is fine. */
    private static void execute(DataSource dataSource, String sql, String ignoredState) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            if (ignoredState == null || !ignoredState.equals(e.getSQLState())) {
                throw e;
            }
        }
    }
}
