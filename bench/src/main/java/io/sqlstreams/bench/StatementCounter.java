package io.sqlstreams.bench;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

/**
 * Counts what a data source's user sends to the server: wraps the data source, the connections it hands out and
 * the statements they make in {@link Proxy}s that pass every call through and count each {@code execute…} call
 * ({@code execute}, {@code executeQuery}, {@code executeUpdate}, {@code executeBatch}, and the large forms) as one
 * statement, each {@code commit} as one commit, and each {@code getConnection} as one connection borrowed.
 */
final class StatementCounter {
    private static final Set<Class<?>> WRAPPED = Set.of(Connection.class, Statement.class, PreparedStatement.class,
            CallableStatement.class);

    /** The counts at one instant; subtract two to get what happened in between. */
    record Counts(long statements, long commits, long connections) {

        Counts since(Counts earlier) {
            return new Counts(statements - earlier.statements, commits - earlier.commits,
                    connections - earlier.connections);
        }
    }

    private final AtomicLong statements = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();

    /** {@code dataSource}, counted. */
    DataSource wrap(DataSource dataSource) {
        return (DataSource) proxy(DataSource.class, dataSource);
    }

    Counts now() {
        return new Counts(statements.get(), commits.get(), connections.get());
    }

    private Object proxy(Class<?> type, Object target) {
        return Proxy.newProxyInstance(StatementCounter.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> invoke(target, method, args));
    }

    private Object invoke(Object target, Method method, Object[] args) throws Throwable {
        count(method.getName());
        Object result;
        try {
            result = method.invoke(target, args);
        } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
        }
        Class<?> returned = method.getReturnType();
        return result != null && WRAPPED.contains(returned) ? proxy(returned, result) : result;
    }

    private void count(String method) {
        if (method.startsWith("execute")) {
            statements.incrementAndGet();
        } else if (method.equals("commit")) {
            commits.incrementAndGet();
        } else if (method.equals("getConnection")) {
            connections.incrementAndGet();
        }
    }
}
