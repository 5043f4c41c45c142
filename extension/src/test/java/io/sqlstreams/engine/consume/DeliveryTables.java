package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.StreamHandle;
import io.sqlstreams.testing.TestDatabase;

/**
 * The library's own record of one consumer group's deliveries, read straight from its tables
 * ({@code exception_queue_<id>}, {@code delivery_log_<id>}, {@code consumer_group_cursor_<id>},
 * {@code claim_lease_<id>}, {@code message_log_<id>}): the second witness the delivery tests check their
 * {@link DeliveryLedger} against.
 */
final class DeliveryTables {
    private final TestDatabase database;
    private final long streamId;
    private final long groupId;

    private DeliveryTables(TestDatabase database, long streamId, long groupId) {
        this.database = database;
        this.streamId = streamId;
        this.groupId = groupId;
    }

    /** The tables of group {@code group} on {@code stream}; both must be registered. */
    static DeliveryTables of(TestDatabase database, StreamHandle<?> stream, String group) {
        return new DeliveryTables(database, stream.get().orElseThrow().id(),
                stream.consumer(group).get().orElseThrow().id());
    }

    record ExceptionRow(long messageId, String status, int attempts, int delays, String lastError, boolean leased) {
    }

    record LogRow(long messageId, int attempt, String status, String error) {
    }

    record Cursor(long claimed, long committed, long settledHead, long pendingHead, String pendingXid) {
    }

    record Lease(long low, long high, int reclaims, boolean expired) {
    }

    List<ExceptionRow> exceptions() {
        return query("SELECT message_id, status, attempts, delays, last_error, lease_token IS NOT NULL FROM "
                + table("exception_queue") + " WHERE consumer_group_id = ? ORDER BY message_id", row ->
                new ExceptionRow(row.getLong(1), row.getString(2), row.getInt(3), row.getInt(4), row.getString(5),
                        row.getBoolean(6)));
    }

    Optional<ExceptionRow> exception(long messageId) {
        return exceptions().stream().filter(row -> row.messageId() == messageId).findFirst();
    }

    /** The group's delivery log, by message then in insertion order. */
    List<LogRow> log() {
        return query("SELECT message_id, attempt, status, error FROM " + table("delivery_log")
                + " WHERE consumer_group_id = ? ORDER BY message_id, id", row ->
                new LogRow(row.getLong(1), row.getInt(2), row.getString(3), row.getString(4)));
    }

    List<LogRow> log(long messageId) {
        return log().stream().filter(row -> row.messageId() == messageId).toList();
    }

    Cursor cursor() {
        return query("SELECT claimed, committed, settled_head, pending_head, pending_xid::text FROM "
                + table("consumer_group_cursor") + " WHERE consumer_group_id = ?", row ->
                new Cursor(row.getLong(1), row.getLong(2), row.getLong(3), row.getLong(4), row.getString(5))).get(0);
    }

    /** The transaction that wrote the cursor row's current version: it changes with every update of the row. */
    String cursorVersion() {
        return query("SELECT xmin::text FROM " + table("consumer_group_cursor") + " WHERE consumer_group_id = ?",
                row -> row.getString(1)).get(0);
    }

    List<Lease> leases() {
        return query("SELECT low, high, reclaims, expires_at <= now() FROM " + table("claim_lease")
                + " WHERE consumer_group_id = ? ORDER BY low", row ->
                new Lease(row.getLong(1), row.getLong(2), row.getInt(3), row.getBoolean(4)));
    }

    /** Gives every lease of the group a new token, as another session's reclaim would; returns how many. */
    int replaceLeaseTokens() {
        return query("UPDATE " + table("claim_lease") + " SET token = gen_random_uuid() WHERE consumer_group_id = ?"
                + " RETURNING low", row -> row.getLong(1)).size();
    }

    /** The highest id in the message log (0 when empty). */
    long head() {
        return query("SELECT coalesce(max(id), 0) FROM " + table("message_log"),
                row -> row.getLong(1), new Object[0]).get(0);
    }

    /** Every id in the message log at {@code schemaVersion}, ascending. */
    List<Long> ids(int schemaVersion) {
        return query("SELECT id FROM " + table("message_log") + " WHERE schema_version = ? ORDER BY id",
                row -> row.getLong(1), new Object[] {schemaVersion});
    }

    /** Writes a message row by hand, bypassing the producer, and returns its id. */
    long insertRaw(int schemaVersion, String payloadJson) {
        return query("INSERT INTO " + table("message_log") + " (schema_version, payload) VALUES (?, ?::jsonb) RETURNING id",
                row -> row.getLong(1), new Object[] {schemaVersion, payloadJson}).get(0);
    }

    private String table(String family) {
        return database.schema() + "." + family + "_" + streamId;
    }

    @FunctionalInterface
    private interface RowReader<R> {
        R read(ResultSet row) throws SQLException;
    }

    private <R> List<R> query(String sql, RowReader<R> reader) {
        return query(sql, reader, new Object[] {groupId});
    }

    private <R> List<R> query(String sql, RowReader<R> reader, Object[] arguments) {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < arguments.length; i++) {
                statement.setObject(i + 1, arguments[i]);
            }
            List<R> rows = new ArrayList<>();
            try (ResultSet row = statement.executeQuery()) {
                while (row.next()) {
                    rows.add(reader.read(row));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }
}
