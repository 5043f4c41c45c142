package io.sqlstreams.engine.sql;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

import io.sqlstreams.engine.CauseChain;

/**
 * Which PostgreSQL failures an unchanged retry may cure: lost or refused connections, serialization
 * failures and deadlocks, lock and statement timeouts, and a server that is shutting down or out of
 * connection slots. Everything else is permanent.
 */
public final class TransientFailures {
    private static final String SEVERITY = "ERROR: ";
    private static final Set<String> TRANSIENT_STATES = Set.of(
            "40001", // serialization_failure
            "40P01", // deadlock_detected
            "55P03", // lock_not_available (lock_timeout)
            "57014", // query_canceled (statement timeout)
            "57P01", // admin_shutdown
            "57P02", // crash_shutdown
            "57P03", // cannot_connect_now
            "53300"); // too_many_connections

    private TransientFailures() {
    }

    public static boolean isTransient(SQLException failure) {
        for (Throwable cause : CauseChain.of(failure)) {
            if (cause instanceof SQLTransientException || cause instanceof SQLRecoverableException) {
                return true;
            }
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.startsWith("08") || TRANSIENT_STATES.contains(state)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The failure as one line: its SQLSTATE and the server's primary message only. PostgreSQL's detail and
     * context fields can quote the data a statement carried (a payload), so they are left out. The driver puts
     * them on the message's later lines; reading the text rather than the driver's own types keeps this right
     * when the driver is the server's, loaded apart from the application.
     */
    public static String describe(SQLException failure) {
        String state = state(failure);
        String message = String.valueOf(failure.getMessage());
        int lineEnd = message.indexOf('\n');
        String primary = (lineEnd < 0 ? message : message.substring(0, lineEnd)).strip();
        if (primary.startsWith(SEVERITY)) {
            primary = primary.substring(SEVERITY.length());
        }
        return (state.isEmpty() ? "" : "[" + state + "] ") + primary;
    }

    /** The SQLSTATE of the failure or of the first cause that has one; empty when none does. */
    public static String state(SQLException failure) {
        for (Throwable cause : CauseChain.of(failure)) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
        }
        return "";
    }
}
