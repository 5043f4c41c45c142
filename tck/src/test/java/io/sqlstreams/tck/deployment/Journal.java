package io.sqlstreams.tck.deployment;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

import javax.sql.DataSource;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.sqlstreams.MessageMeta;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Where a deployment's observers write down each call, in a table of the application's sqlstreams schema, so the
 * test client sees from outside the server what ran, how often, on which thread, in which deployment, when,
 * whether it succeeded, under which timeout, for which due time ({@link MessageMeta#scheduledAt()}), and at which
 * attempt.
 */
@ApplicationScoped
public class Journal {
    /** One row per observer call. */
    public static final String TABLE = "tck_journal";
    private static final String DEPLOYMENT = "tck.deployment";

    @Resource(lookup = "jdbc/sqlstreams")
    DataSource dataSource;

    /** Read once: while the server stops the application, its configuration may no longer load. */
    @Inject
    @ConfigProperty(name = "sqlstreams.schema")
    String schema;

    private final String deployment = ConfigProvider.getConfig().getOptionalValue(DEPLOYMENT, String.class)
            .orElse("");

    /** The table, created by the test client before the application is deployed. */
    public static String createTable(String schema) {
        return "CREATE TABLE IF NOT EXISTS " + schema + "." + TABLE + " (message_id bigint NOT NULL,"
                + " payment_order text NOT NULL, message_key text, thread text NOT NULL, deployment text NOT NULL,"
                + " started_at timestamptz NOT NULL, ran_at timestamptz NOT NULL, succeeded boolean NOT NULL,"
                + " timeout_ms bigint NOT NULL, scheduled_at timestamptz NOT NULL, attempt int NOT NULL)";
    }

    /** Every row in the order the calls ended. */
    public static String selectAll(String schema) {
        return "SELECT message_id, payment_order, message_key, thread, deployment, started_at, ran_at, succeeded,"
                + " timeout_ms, attempt FROM " + schema + "." + TABLE + " ORDER BY ran_at";
    }

    /** A call that ends now, successfully. */
    public void record(MessageMeta meta, Payment payment) throws SQLException {
        Instant now = Instant.now();
        record(meta, payment, now, now, true);
    }

    /** A call that ran from {@code started} to {@code ended}. */
    public void record(MessageMeta meta, Payment payment, Instant started, Instant ended, boolean succeeded)
            throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + schema + "." + TABLE
                     + " (message_id, payment_order, message_key, thread, deployment, started_at, ran_at, succeeded,"
                     + " timeout_ms, scheduled_at, attempt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setLong(1, meta.messageId());
            insert.setString(2, payment.order());
            insert.setString(3, meta.messageKey());
            insert.setString(4, Thread.currentThread().getName());
            insert.setString(5, deployment);
            insert.setTimestamp(6, Timestamp.from(started));
            insert.setTimestamp(7, Timestamp.from(ended));
            insert.setBoolean(8, succeeded);
            insert.setLong(9, meta.options().timeout().toMillis());
            insert.setTimestamp(10, Timestamp.from(meta.scheduledAt()));
            insert.setInt(11, meta.attempt());
            insert.executeUpdate();
        }
    }

    /** The MicroProfile Config property naming the deployment in its rows. */
    public static String deploymentProperty() {
        return DEPLOYMENT;
    }
}
