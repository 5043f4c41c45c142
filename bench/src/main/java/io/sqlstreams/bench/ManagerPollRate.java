package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

import javax.sql.DataSource;

/**
 * Shortens the system manager's poll rate for a measurement: the client has no verb for the system's own settings
 * yet, so this writes the {@code manager} worker row's document ({@code {"poll_rate":"1s"}}) directly, inserting
 * the row when no manager has run yet. A manager reads it when it claims the worker, so set it before the first
 * consume session starts.
 */
final class ManagerPollRate {

    private ManagerPollRate() {
    }

    /** Sets the poll rate of the installation in {@code schema} (which must exist) to whole {@code seconds}. */
    static void set(DataSource dataSource, String schema, Duration rate) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement("INSERT INTO " + schema + ".worker_config"
                     + " (system_id, name, metadata, target_instances)"
                     + " SELECT id, 'manager', jsonb_build_object('poll_rate', ?::text), 1 FROM " + schema
                     + ".system_config ON CONFLICT (name, system_id) WHERE system_id IS NOT NULL"
                     + " DO UPDATE SET metadata = EXCLUDED.metadata, updated_at = now()")) {
            statement.setString(1, rate.toSeconds() + "s");
            if (statement.executeUpdate() != 1) {
                throw new SQLException("schema " + schema + " has no system row to set the manager's poll rate on");
            }
        }
    }
}
