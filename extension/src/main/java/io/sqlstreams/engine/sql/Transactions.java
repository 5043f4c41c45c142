package io.sqlstreams.engine.sql;

import java.sql.Connection;
import java.sql.SQLException;

/** Runs work inside one transaction on a connection the caller owns for the duration. */
public final class Transactions {
    private Transactions() {
    }

    /** Commits on return, rolls back on any failure, and leaves the connection in auto-commit mode. */
    public static <R> R run(Connection connection, SqlWork<R> work) throws SQLException {
        connection.setAutoCommit(false);
        try {
            R result = work.run(connection);
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException | Error failure) {
            rollbackQuietly(connection, failure);
            throw failure;
        } finally {
            restoreAutoCommit(connection);
        }
    }

    private static void rollbackQuietly(Connection connection, Throwable failure) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            failure.addSuppressed(rollbackFailure);
        }
    }

    private static void restoreAutoCommit(Connection connection) {
        try {
            if (!connection.isClosed()) {
                connection.setAutoCommit(true);
            }
        } catch (SQLException ignored) {
            // a broken connection is discarded by its pool; nothing to restore
        }
    }
}
