package io.sqlstreams.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.UUID;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * Independent reads of a stream's tables for the produce and key tests: plain SQL ({@link Sql}) through the test
 * pool, never through the engine.
 */
public final class LogRows {
    /** The frozen namespace of name-based idempotency keys (digest §2.6), restated here on purpose. */
    public static final UUID IDEMPOTENCY_NAMESPACE = UUID.fromString("b6f6c193-4e2b-45c1-9d3f-6a821e0c7a54");

    private LogRows() {
    }

    /** Rows in the stream's log. */
    public static long messages(TestDatabase database, long streamId) throws SQLException {
        return new Sql(database).count("SELECT count(*) FROM {s}.message_log_" + streamId);
    }

    /** Rows in the stream's idempotency claims. */
    public static long claims(TestDatabase database, long streamId) throws SQLException {
        return new Sql(database).count("SELECT count(*) FROM {s}.idempotency_key_" + streamId);
    }

    public static boolean claimed(TestDatabase database, long streamId, UUID key) throws SQLException {
        return new Sql(database).count("SELECT count(*) FROM {s}.idempotency_key_" + streamId
                + " WHERE idempotency_key = ?", key) == 1;
    }

    public static String partition(TestDatabase database, long streamId, long n) {
        return database.schema() + ".message_log_" + streamId + "_" + n;
    }

    public static boolean partitionExists(TestDatabase database, long streamId, long n) throws SQLException {
        return new Sql(database).bool("SELECT to_regclass(?) IS NOT NULL", partition(database, streamId, n));
    }

    /** True when the stored payload of message {@code id} equals {@code json}, compared as jsonb. */
    public static boolean payloadIs(TestDatabase database, long streamId, long id, String json) throws SQLException {
        return new Sql(database).bool("SELECT coalesce((SELECT payload = ?::jsonb FROM {s}.message_log_" + streamId
                + " WHERE id = ?), false)", json, id);
    }

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

    /** The name-based UUIDv5 of {@code name} under {@link #IDEMPOTENCY_NAMESPACE}, computed independently. */
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
