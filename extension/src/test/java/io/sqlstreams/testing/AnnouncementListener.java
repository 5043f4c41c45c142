package io.sqlstreams.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/** A plain pgjdbc connection listening on the commit-announcement channel, as a test's own witness. */
public final class AnnouncementListener implements AutoCloseable {
    private final Connection connection;
    private final String schema;

    public AnnouncementListener(TestDatabase database) throws SQLException {
        this(database, database.schema());
    }

    /** A listener for the announcements of installation {@code schema}. */
    public AnnouncementListener(TestDatabase database, String schema) throws SQLException {
        this.connection = database.dataSource().getConnection();
        this.schema = schema;
        connection.setAutoCommit(true);
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN sqlstreams_wakeup");
        }
    }

    /** The payloads of the schema's announcements that arrive within {@code millis}. */
    public List<String> receive(int millis) throws SQLException {
        PGNotification[] notifications = connection.unwrap(PGConnection.class).getNotifications(millis);
        List<String> ours = new ArrayList<>();
        if (notifications != null) {
            for (PGNotification notification : notifications) {
                if (notification.getParameter().startsWith(schema + ":")) {
                    ours.add(notification.getParameter());
                }
            }
        }
        return ours;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
