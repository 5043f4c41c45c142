package io.sqlstreams.engine.consume;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

import io.sqlstreams.Code;

/**
 * The connection a transactional handler is lent: the library's open transaction, with every call that would end
 * or detach that transaction refused (SQL0157). Statements and the handler's own savepoints pass through.
 */
final class LentConnection implements InvocationHandler {
    private static final Set<String> REFUSED = Set.of("commit", "close", "setAutoCommit", "abort");

    private final Connection transaction;

    private LentConnection(Connection transaction) {
        this.transaction = transaction;
    }

    static Connection lend(Connection transaction) {
        return (Connection) Proxy.newProxyInstance(LentConnection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new LentConnection(transaction));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        boolean wholeRollback = name.equals("rollback") && method.getParameterCount() == 0;
        if (REFUSED.contains(name) || wholeRollback) {
            throw new SQLException(Code.SQL0157.id() + " a transactional handler must not call " + name
                    + " on the connection it is lent: the library commits when the handler returns and rolls the"
                    + " message back when it throws", "25000");
        }
        if (name.equals("equals")) {
            return proxy == args[0];
        }
        if (name.equals("hashCode")) {
            return System.identityHashCode(proxy);
        }
        try {
            return method.invoke(transaction, args);
        } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
        }
    }
}
