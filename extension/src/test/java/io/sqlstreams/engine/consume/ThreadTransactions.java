package io.sqlstreams.engine.consume;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.sqlstreams.engine.HostTransactions;

/**
 * A host's transactions as a test plays them with plain JDBC: a transaction is one connection bound to the thread
 * that began it, and every {@link #connection()} on that thread is a handle of it, as a server hands out enlisted
 * handles. The handler writes through {@link #current()} as an application's JPA writes go through the server's.
 * The host's own timeout is not simulated.
 */
final class ThreadTransactions implements HostTransactions {
    private final ThreadLocal<Connection> bound = new ThreadLocal<>();
    private final DataSource pool;
    private final AtomicInteger commits = new AtomicInteger();

    ThreadTransactions(DataSource pool) {
        this.pool = pool;
    }

    /** A handle of the calling thread's transaction's connection. */
    Connection current() {
        Connection connection = bound.get();
        if (connection == null) {
            throw new IllegalStateException("no host transaction on " + Thread.currentThread().getName());
        }
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> method.getName().equals("close") ? null : method.invoke(connection, args));
    }

    /** How many of these transactions committed. */
    int commits() {
        return commits.get();
    }

    @Override
    public HostTransaction begin(Duration timeout) throws SQLException {
        if (bound.get() != null) {
            throw new IllegalStateException("a host transaction is already bound to this thread");
        }
        Connection connection = pool.getConnection();
        connection.setAutoCommit(false);
        bound.set(connection);
        return new HostTransaction() {
            @Override
            public Connection connection() {
                return current();
            }

            @Override
            public void commit() throws SQLException {
                connection.commit();
                commits.incrementAndGet();
            }

            @Override
            public void close() throws SQLException {
                bound.remove();
                try (connection) {
                    connection.rollback();
                    connection.setAutoCommit(true);
                }
            }
        };
    }
}
