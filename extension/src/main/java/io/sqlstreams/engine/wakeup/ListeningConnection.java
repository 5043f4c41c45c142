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

    /** Borrows a connection and listens on it. */
    static ListeningConnection open(DataSource dataSource, WakeupQueries queries) throws SQLException, Unsupported {
        Connection connection = dataSource.getConnection();
        try {
            PGConnection notifications = unwrap(connection);
            connection.setAutoCommit(true);
            queries.listen(connection);
            return new ListeningConnection(connection, notifications, queries);
        } catch (SQLException | Unsupported | RuntimeException | LinkageError failure) {
            connection.close();
            throw failure;
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
