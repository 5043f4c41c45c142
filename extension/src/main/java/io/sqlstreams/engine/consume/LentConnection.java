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
 * or detach that transaction refused (SQL0157). Statements and the handler's own savepoints pass through; the
 * statements and the metadata it hands out give this connection back from {@code getConnection()}, and it unwraps
 * to itself as a {@link Connection}, so neither leads to the unguarded one. It is also {@link AfterCommit}: a
 * produce on it announces its stream once the library committed.
 */
final class LentConnection implements InvocationHandler {
    private static final Set<String> REFUSED = Set.of("commit", "close", "setAutoCommit", "abort");
    /** Interfaces whose {@code getConnection()} would name the unguarded connection: statements, the metadata. */
    private static final ClassValue<Boolean> NAMES_ITS_CONNECTION = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.isInterface() && type.getMethod("getConnection").getReturnType() == Connection.class;
            } catch (NoSuchMethodException none) {
                return false;
            }
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
        Object result = invokeOn(transaction.connection(), method, args);
        return NAMES_ITS_CONNECTION.get(method.getReturnType()) ? backTo(proxy, method.getReturnType(), result)
                : result;
    }

    private static Object backTo(Object lent, Class<?> type, Object target) {
        return Proxy.newProxyInstance(LentConnection.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> method.getName().equals("getConnection") && method.getParameterCount() == 0
                        ? lent : invokeOn(target, method, args));
    }

    private static Object invokeOn(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
        }
    }
}
