package io.sqlstreams.jakarta;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.sqlstreams.engine.HostTransactions;

/**
 * A stand-in for the server's JTA enlistment in Weld SE: between {@link #begin} and {@link #commit} or
 * {@link #rollback} the calling thread is "in a transaction", and every connection the data source hands it is
 * that transaction's one connection (auto-commit off; closing a handle leaves it open), as a server hands out
 * enlisted handles of one transaction.
 */
final class SimulatedTransactions {
    private static final ThreadLocal<Connection> CURRENT = new ThreadLocal<>();
    private static final ThreadLocal<List<Runnable>> AFTER_COMMIT = ThreadLocal.withInitial(ArrayList::new);

    private SimulatedTransactions() {
    }

    static void begin(DataSource pool) throws SQLException {
        Connection connection = pool.getConnection();
        connection.setAutoCommit(false);
        CURRENT.set(connection);
    }

    static void commit() throws SQLException {
        try (Connection connection = CURRENT.get()) {
            connection.commit();
        } finally {
            CURRENT.remove();
        }
        List<Runnable> actions = List.copyOf(AFTER_COMMIT.get());
        AFTER_COMMIT.remove();
        actions.forEach(Runnable::run);
    }

    static void rollback() throws SQLException {
        try (Connection connection = CURRENT.get()) {
            connection.rollback();
        } finally {
            CURRENT.remove();
            AFTER_COMMIT.remove();
        }
    }

    /**
     * These transactions as the host's for transactional observers, begun on {@code pool} and enlisting the
     * connections of {@code enlisting}; a timeout is not simulated.
     */
    static HostTransactions host(DataSource pool, DataSource enlisting) {
        return timeout -> {
            begin(pool);
            return new HostTransactions.HostTransaction() {
                private boolean ended;

                @Override
                public Connection connection() throws SQLException {
                    return enlisting.getConnection();
                }

                @Override
                public void commit() throws SQLException {
                    ended = true;
                    SimulatedTransactions.commit();
                }

                @Override
                public void close() throws SQLException {
                    if (!ended) {
                        ended = true;
                        rollback();
                    }
                }
            };
        };
    }

    static void afterCommit(Runnable action) {
        AFTER_COMMIT.get().add(action);
    }

    static boolean active() {
        return CURRENT.get() != null;
    }

    /** The pool, except that a thread in a transaction gets handles of its transaction's connection. */
    static DataSource enlisting(DataSource pool) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getConnection") && active()) {
                        return handle(CURRENT.get());
                    }
                    return method.invoke(pool, args);
                });
    }

    private static Connection handle(Connection enlisted) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> method.getName().equals("close") ? null : method.invoke(enlisted, args));
    }
}
