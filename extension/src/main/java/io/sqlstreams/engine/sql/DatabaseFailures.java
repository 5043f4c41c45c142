package io.sqlstreams.engine.sql;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;

/**
 * The one translation of a database failure into the engine's coded failure: SQL0110 when an unchanged retry
 * may cure it (the caller may try again), SQL0111 when it will not. The message names the work and carries the
 * failure's SQLSTATE and primary text only ({@link TransientFailures#describe}).
 */
public final class DatabaseFailures {
    private DatabaseFailures() {
    }

    /** {@code what} failed once with {@code failure}. */
    public static SqlStreamsException translate(String what, java.sql.SQLException failure) {
        Code code = TransientFailures.isTransient(failure) ? Code.SQL0110 : Code.SQL0111;
        return new SqlStreamsException(code, what + " failed: " + TransientFailures.describe(failure), failure);
    }

    /** {@code what} failed transiently on every one of {@code attempts} attempts. */
    public static SqlStreamsException exhausted(String what, int attempts, java.sql.SQLException failure) {
        return new SqlStreamsException(Code.SQL0110,
                what + " failed after " + attempts + " attempts: " + TransientFailures.describe(failure), failure);
    }
}
