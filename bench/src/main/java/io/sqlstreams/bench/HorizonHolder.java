package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/**
 * A transaction that holds the server's xmin horizon where it is: {@code BEGIN ISOLATION LEVEL REPEATABLE READ;}
 * and a first statement on a connection of its own, left open until {@link #close()} rolls it back. While it is
 * open no row version deleted or updated after it began can be vacuumed away, anywhere on the server.
 */
final class HorizonHolder implements AutoCloseable {

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

    private final Connection connection;
    private final long xid;
    private boolean closed;

    private HorizonHolder(Connection connection, long xid) {
        this.connection = connection;
        this.xid = xid;
    }

    static HorizonHolder open(DataSource dataSource, Kind kind) throws SQLException {
        Connection connection = dataSource.getConnection();
        try {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (Statement statement = connection.createStatement();
                 ResultSet row = statement.executeQuery(kind.statement())) {
                row.next();
                return new HorizonHolder(connection, row.getLong(1));
            }
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The transaction id it holds; 0 for {@link Kind#SNAPSHOT}. */
    long xid() {
        return xid;
    }

    /** Rolls the transaction back, releasing the horizon; closing twice does nothing more. */
    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            connection.rollback();
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            connection.setAutoCommit(true);
        } finally {
            connection.close();
        }
    }
}
