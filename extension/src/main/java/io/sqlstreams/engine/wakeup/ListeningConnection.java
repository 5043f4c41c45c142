package io.sqlstreams.engine.wakeup;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import io.sqlstreams.engine.query.WakeupQueries;

/**
 * The one connection a client listens on, borrowed from its data source for as long as it listens and unwrapped
 * to pgjdbc's {@link PGConnection} (through a server's pool wrapper too). The only class that uses pgjdbc's own API.
 */
final class ListeningConnection implements AutoCloseable {

    /** The data source's connections cannot deliver notifications: not pgjdbc's, or its classes are not visible. */
    static final class Unsupported extends Exception {
        Unsupported(String reason, Throwable cause) {
            super(reason, cause);
        }
    }

    private final Connection connection;
    private final PGConnection notifications;
    private final WakeupQueries queries;

    private ListeningConnection(Connection connection, PGConnection notifications, WakeupQueries queries) {
        this.connection = connection;
        this.notifications = notifications;
        this.queries = queries;
    }

    /** Borrows a connection and, once it has shown that it talks to its server process directly, listens on it. */
    static ListeningConnection open(DataSource dataSource, WakeupQueries queries) throws SQLException, Unsupported {
        Connection connection = dataSource.getConnection();
        try {
            PGConnection notifications = unwrap(connection);
            connection.setAutoCommit(true);
            requireDirect(connection, notifications, queries);
            queries.listen(connection);
            return new ListeningConnection(connection, notifications, queries);
        } catch (SQLException | Unsupported | RuntimeException | LinkageError failure) {
            connection.close();
            throw failure;
        }
    }

    /**
     * Refuses a connection that reaches its server process through a pooler or proxy. Behind a transaction-mode
     * pooler (PgBouncer) each transaction may run on another server process, so a LISTEN would stay on a process
     * that other clients then use: its notifications would reach them and pile up unread in their drivers. Such a
     * pooler stands between driver and server for cancel requests too, and gives the driver a cancel key of its own:
     * the process id in it is not the one that runs the statements. A direct connection's is.
     */
    private static void requireDirect(Connection connection, PGConnection driver, WakeupQueries queries)
            throws SQLException, Unsupported {
        int serving = queries.backendPid(connection);
        int announced = driver.getBackendPID();
        if (serving != announced) {
            throw new Unsupported("its connections reach PostgreSQL through a pooler or proxy (the connection's"
                    + " cancel key names server process " + announced + " but process " + serving + " runs its"
                    + " statements; a transaction-mode pooler such as PgBouncer's would leave a LISTEN on a process"
                    + " other clients use)", null);
        }
    }

    private static PGConnection unwrap(Connection connection) throws Unsupported {
        try {
            if (connection.isWrapperFor(PGConnection.class)) {
                return connection.unwrap(PGConnection.class);
            }
            throw new Unsupported("the data source's connections (" + connection.getClass().getName()
                    + ") do not unwrap to pgjdbc's " + PGConnection.class.getName(), null);
        } catch (SQLException | LinkageError failure) {
            throw new Unsupported("the data source's connections do not unwrap to pgjdbc's PGConnection"
                    + " (is the PostgreSQL driver visible to the application?): " + failure, failure);
        }
    }

    /** The payloads that arrive within {@code timeout} (those already received at once). */
    List<String> receive(Duration timeout) throws SQLException {
        PGNotification[] received = notifications.getNotifications((int) Math.max(1, timeout.toMillis()));
        List<String> payloads = new ArrayList<>();
        if (received != null) {
            for (PGNotification notification : received) {
                payloads.add(notification.getParameter());
            }
        }
        return payloads;
    }

    /** A round trip, so a connection that broke silently is noticed. */
    boolean alive() throws SQLException {
        return connection.isValid(5);
    }

    /** Stops listening (a pooled connection must not keep receiving) and gives the connection back. */
    @Override
    public void close() {
        try {
            queries.stopListening(connection);
        } catch (SQLException broken) {
            // a broken connection listens no more; closing it is all that is left
        }
        try {
            connection.close();
        } catch (SQLException ignored) {
            // already gone
        }
    }
}
