package io.sqlstreams.testing;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.logging.Logger;

import javax.sql.DataSource;

/**
 * A pool's connections as another role: every borrowed connection runs {@code SET ROLE role} first, and when it is
 * closed an open transaction is rolled back and {@code RESET ROLE} runs before it goes back to the pool, so the
 * pool itself is never left switched. For tests of what a role without some privilege can do.
 */
public final class RoleDataSource implements DataSource {
    private final DataSource delegate;
    private final String role;

    public RoleDataSource(DataSource delegate, String role) {
        this.delegate = delegate;
        this.role = role;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return asRole(delegate.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return asRole(delegate.getConnection(username, password));
    }

    private Connection asRole(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET ROLE " + role);
        } catch (SQLException failure) {
            connection.close();
            throw failure;
        }
        InvocationHandler handler = (proxy, method, arguments) -> {
            if (method.getName().equals("close") && method.getParameterCount() == 0) {
                try {
                    if (!connection.isClosed()) {
                        if (!connection.getAutoCommit()) {
                            connection.rollback();
                            connection.setAutoCommit(true);
                        }
                        try (Statement statement = connection.createStatement()) {
                            statement.execute("RESET ROLE");
                        }
                    }
                } finally {
                    connection.close();
                }
                return null;
            }
            try {
                return method.invoke(connection, arguments);
            } catch (InvocationTargetException failure) {
                throw failure.getCause();
            }
        };
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, handler);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return delegate.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        delegate.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        delegate.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return delegate.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return delegate.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return delegate.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return delegate.isWrapperFor(type);
    }
}
