package io.sqlstreams.tck;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.tck.deployment.Journal;

/** The deployment's {@link Journal} as the test client reads it: one entry per observer call. */
final class JournalRows {
    private JournalRows() {
    }

    record Entry(long messageId, String order, String key, String thread, String deployment, Instant startedAt,
                 Instant ranAt, boolean succeeded, Duration timeout, int attempt) {
    }

    static List<Entry> read(String schema) throws SQLException {
        try (Connection connection = ServerCoordinates.current().database().getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(Journal.selectAll(schema))) {
            List<Entry> entries = new ArrayList<>();
            while (rows.next()) {
                entries.add(new Entry(rows.getLong("message_id"), rows.getString("payment_order"),
                        rows.getString("message_key"), rows.getString("thread"), rows.getString("deployment"),
                        rows.getTimestamp("started_at").toInstant(), rows.getTimestamp("ran_at").toInstant(),
                        rows.getBoolean("succeeded"), Duration.ofMillis(rows.getLong("timeout_ms")),
                        rows.getInt("attempt")));
            }
            return entries;
        }
    }
}
