package io.sqlstreams.engine.consume;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

import io.sqlstreams.Code;
import io.sqlstreams.engine.sql.AfterCommit;

/**
 * The connection a transactional handler is lent: the library's open transaction, with every call that would end
 * or detach that transaction refused (SQL0157). Statements and the handler's own savepoints pass through; the
 * statements and the metadata it hands out give this connection back from {@code getConnection()}, their result sets
 * give back such a statement from {@code getStatement()}, and it unwraps to itself as a {@link Connection}, so none
 * of these leads to the unguarded one (unwrapping a statement to the driver's own class still does). It is also
 * {@link AfterCommit}: a produce on it announces its stream once the library committed.
 */
final class LentConnection implements InvocationHandler {
    private static final Set<String> REFUSED = Set.of("commit", "close", "setAutoCommit", "abort");
    /**
     * Interfaces that lead back to the unguarded connection: statements and the metadata by {@code getConnection()},
     * result sets by {@code getStatement()}.
     */
    private static final ClassValue<Boolean> LEADS_BACK = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return type.isInterface() && (returns(type, "getConnection", Connection.class)
                    || returns(type, "getStatement", Statement.class));
        }
    };

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
        if (name.equals("unwrap") || name.equals("isWrapperFor")) {
            Class<?> wanted = (Class<?>) args[0];
            if (wanted.isInstance(proxy) || Connection.class.isAssignableFrom(wanted)) {
                return name.equals("unwrap") ? wanted.cast(proxy) : Boolean.TRUE;
            }
        }
        return guarded(proxy, method.getReturnType(), invokeOn(transaction.connection(), method, args));
    }

    /** {@code result}, of the declared {@code type}, as the handler may have it: leading back to {@code lent}. */
    private static Object guarded(Object lent, Class<?> type, Object result) {
        if (result == null || !LEADS_BACK.get(type)) {
            return result;
        }
        return Proxy.newProxyInstance(LentConnection.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> method.getName().equals("getConnection") && method.getParameterCount() == 0
                        ? lent : guarded(lent, method.getReturnType(), invokeOn(result, method, args)));
    }

    private static boolean returns(Class<?> type, String method, Class<?> returned) {
        try {
            return type.getMethod(method).getReturnType() == returned;
        } catch (NoSuchMethodException none) {
            return false;
        }
    }

    private static Object invokeOn(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
        }
    }
}
