package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

/**
 * A connection of the client's data source held in one transaction for transactional handlers, with what is to run
 * once it commits. It can be aborted from another thread while a handler still runs on it: the connection closes
 * under the handler and the server rolls the transaction back.
 */
final class HandlerTransaction implements AutoCloseable {
    private final Connection connection;
    private final List<Runnable> afterCommit = new CopyOnWriteArrayList<>();
    private volatile boolean aborted;

    private HandlerTransaction(Connection connection) {
        this.connection = connection;
    }

    static HandlerTransaction begin(DataSource dataSource) throws SQLException {
        Connection connection = dataSource.getConnection();
        try {
            connection.setAutoCommit(false);
            return new HandlerTransaction(connection);
        } catch (SQLException | RuntimeException failure) {
            connection.close();
            throw failure;
        }
    }

    Connection connection() {
        return connection;
    }

    /** Runs {@code action} once the transaction commits; a rollback drops it. */
    void afterCommit(Runnable action) {
        afterCommit.add(action);
    }

    void commit() throws SQLException {
        connection.commit();
        afterCommit.forEach(Runnable::run);
        afterCommit.clear();
    }

    /** Rolls back after {@code failure}, which keeps any failure of the rollback itself. */
    void rollBackAfter(Throwable failure) {
        afterCommit.clear();
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            failure.addSuppressed(rollbackFailure);
        }
    }

    void rollBack() throws SQLException {
        afterCommit.clear();
        connection.rollback();
    }

    void abort() {
        aborted = true;
        try {
            connection.abort(Runnable::run);
        } catch (SQLException | RuntimeException failure) {
            // nothing more to do: closing the pooled connection below rolls back at the latest
        }
    }

    boolean aborted() {
        return aborted;
    }

    /**
     * Gives the connection back to the pool as it was lent: auto-commit, with no transaction open. What was not
     * committed is rolled back first, as turning auto-commit on would commit it.
     */
    @Override
    public void close() throws SQLException {
        try {
            if (!aborted) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        } finally {
            connection.close();
        }
    }
}
