package io.sqlstreams.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.testing.TestDatabase;

/**
 * Independent reads of a stream's tables for the produce and key tests: plain SQL through the test pool, never
 * through the engine. In statements, {@code {s}} stands for the test schema.
 */
public final class LogRows {
    /** The frozen namespace of name-based idempotency keys (digest §2.6), restated here on purpose. */
    public static final UUID IDEMPOTENCY_NAMESPACE = UUID.fromString("b6f6c193-4e2b-45c1-9d3f-6a821e0c7a54");

    private LogRows() {
    }

    /** Every row of {@code sql}, each as its column values. */
    public static List<List<Object>> rows(TestDatabase database, String sql, Object... params) throws SQLException {
        try (Connection connection = database.dataSource().getConnection()) {
            return rows(connection, database.schema(), sql, params);
        }
    }

    public static List<List<Object>> rows(Connection connection, String schema, String sql, Object... params)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql.replace("{s}", schema))) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                int columns = rows.getMetaData().getColumnCount();
                List<List<Object>> result = new ArrayList<>();
                while (rows.next()) {
                    Object[] row = new Object[columns];
                    for (int c = 0; c < columns; c++) {
                        row[c] = rows.getObject(c + 1);
                    }
                    result.add(Arrays.asList(row));
                }
                return result;
            }
        }
    }

    /** The single value of a one-row, one-column query (null for SQL NULL). */
    public static Object value(TestDatabase database, String sql, Object... params) throws SQLException {
        List<List<Object>> rows = rows(database, sql, params);
        assertThat(rows).as("rows of %s", sql).hasSize(1);
        return rows.get(0).get(0);
    }

    public static long count(TestDatabase database, String sql, Object... params) throws SQLException {
        return ((Number) value(database, sql, params)).longValue();
    }

    public static boolean bool(TestDatabase database, String sql, Object... params) throws SQLException {
        return (Boolean) value(database, sql, params);
    }

    /** Rows in the stream's log. */
    public static long messages(TestDatabase database, long streamId) throws SQLException {
        return count(database, "SELECT count(*) FROM {s}.message_log_" + streamId);
    }

    /** Rows in the stream's idempotency claims. */
    public static long claims(TestDatabase database, long streamId) throws SQLException {
        return count(database, "SELECT count(*) FROM {s}.idempotency_key_" + streamId);
    }

    public static boolean claimed(TestDatabase database, long streamId, UUID key) throws SQLException {
        return count(database, "SELECT count(*) FROM {s}.idempotency_key_" + streamId + " WHERE idempotency_key = ?",
                key) == 1;
    }

    public static String partition(TestDatabase database, long streamId, long n) {
        return database.schema() + ".message_log_" + streamId + "_" + n;
    }

    public static boolean partitionExists(TestDatabase database, long streamId, long n) throws SQLException {
        return bool(database, "SELECT to_regclass(?) IS NOT NULL", partition(database, streamId, n));
    }

    /** True when the stored payload of message {@code id} equals {@code json}, compared as jsonb. */
    public static boolean payloadIs(TestDatabase database, long streamId, long id, String json) throws SQLException {
        return bool(database, "SELECT coalesce((SELECT payload = ?::jsonb FROM {s}.message_log_" + streamId
                + " WHERE id = ?), false)", json, id);
    }

    /** The name-based UUIDv5 of {@code name} under {@link #IDEMPOTENCY_NAMESPACE}, computed independently. */
    /**
     * Makes PostgreSQL itself reject every message of the stream whose payload has {@code marker} as a value:
     * a row trigger raising an error, for failures only the database can report.
     */
    public static void rejectPayloadsMarked(TestDatabase database, long streamId, String marker) throws SQLException {
        String function = database.schema() + ".reject_marked_" + streamId;
        database.execute("CREATE OR REPLACE FUNCTION " + function + "() RETURNS trigger LANGUAGE plpgsql AS $$"
                + " BEGIN IF NEW.payload::text LIKE '%" + marker + "%' THEN RAISE EXCEPTION 'rejected by the test';"
                + " END IF; RETURN NEW; END $$");
        database.execute("CREATE TRIGGER reject_marked BEFORE INSERT ON " + database.schema() + ".message_log_"
                + streamId + " FOR EACH ROW EXECUTE FUNCTION " + function + "()");
    }

    public static UUID uuidV5(String name) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(ByteBuffer.allocate(16).putLong(IDEMPOTENCY_NAMESPACE.getMostSignificantBits())
                    .putLong(IDEMPOTENCY_NAMESPACE.getLeastSignificantBits()).array());
            byte[] hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
            hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
            hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
            ByteBuffer bytes = ByteBuffer.wrap(hash, 0, 16);
            return new UUID(bytes.getLong(), bytes.getLong());
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** Runs {@code call}, which must fail with a {@link SqlStreamsException} of {@code code}; returns it. */
    public static SqlStreamsException failsWith(Code code, ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).as("expected %s", code).isInstanceOf(SqlStreamsException.class);
        SqlStreamsException failure = (SqlStreamsException) thrown;
        assertThat(failure.code()).as("code of: %s", failure.getMessage()).isEqualTo(code);
        return failure;
    }
}
