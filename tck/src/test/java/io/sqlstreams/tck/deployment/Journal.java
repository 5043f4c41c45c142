package io.sqlstreams.tck.deployment;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.sqlstreams.MessageMeta;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Where a deployment's observers write down each call, in a table of the application's sqlstreams schema, so the
 * test client sees from outside the server what ran, how often, and on which thread.
 */
@ApplicationScoped
public class Journal {
    /** One row per observer call. */
    public static final String TABLE = "tck_journal";

    @Resource(lookup = "jdbc/sqlstreams")
    DataSource dataSource;

    /** Read once: while the server stops the application, its configuration may no longer load. */
    @Inject
    @ConfigProperty(name = "sqlstreams.schema")
    String schema;

    /** The table, created by the test client before the application is deployed. */
    public static String createTable(String schema) {
        return "CREATE TABLE IF NOT EXISTS " + schema + "." + TABLE + " (message_id bigint NOT NULL,"
                + " payment_order text NOT NULL, thread text NOT NULL,"
                + " ran_at timestamptz NOT NULL DEFAULT clock_timestamp())";
    }

    /** Every row in the order the calls were written: message id, payment order, thread name, when. */
    public static String selectAll(String schema) {
        return "SELECT message_id, payment_order, thread, ran_at FROM " + schema + "." + TABLE + " ORDER BY ran_at";
    }

    public void record(MessageMeta meta, Payment payment) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + schema + "." + TABLE
                     + " (message_id, payment_order, thread) VALUES (?, ?, ?)")) {
            insert.setLong(1, meta.messageId());
            insert.setString(2, payment.order());
            insert.setString(3, Thread.currentThread().getName());
            insert.executeUpdate();
        }
    }
}
