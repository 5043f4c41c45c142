package io.sqlstreams.engine.consume;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

import io.sqlstreams.Code;
import io.sqlstreams.engine.sql.AfterCommit;

/**
 * The connection a transactional handler is lent: the library's open transaction, with every call that would end
 * or detach that transaction refused (SQL0157). Statements and the handler's own savepoints pass through. It is
 * also {@link AfterCommit}: a produce on it announces its stream once the library committed.
 */
final class LentConnection implements InvocationHandler {
    private static final Set<String> REFUSED = Set.of("commit", "close", "setAutoCommit", "abort");

    private final HandlerTransaction transaction;

    private LentConnection(HandlerTransaction transaction) {
        this.transaction = transaction;
    }

    static Connection lend(HandlerTransaction transaction) {
        return (Connection) Proxy.newProxyInstance(LentConnection.class.getClassLoader(),
                new Class<?>[] {Connection.class, AfterCommit.class}, new LentConnection(transaction));
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
        if (method.getDeclaringClass() == AfterCommit.class) {
            transaction.afterCommit((Runnable) args[0]);
            return null;
        }
        if (name.equals("equals")) {
            return proxy == args[0];
        }
        if (name.equals("hashCode")) {
            return System.identityHashCode(proxy);
        }
        try {
            return method.invoke(transaction.connection(), args);
        } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
        }
    }
}
