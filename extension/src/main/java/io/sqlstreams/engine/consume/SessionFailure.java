package io.sqlstreams.engine.consume;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;

/**
 * What a failure means for a consume session, decided here alone: the session's loops retry what it does not
 * end, and the server's supervisor restarts what a fresh session can heal.
 */
public enum SessionFailure {
    /** A database failure or the like: the loop that met it logs it and tries again. */
    RETRIED,
    /** Ends the session (a lost instance, a loop that exited); a fresh session can heal it. */
    RESTARTABLE,
    /** The worker was suspended (SQL0107): the session stops on purpose. */
    SUSPENDED,
    /** The group or its stream no longer exists (SQL0014, SQL0005): the session ends for good. */
    GONE;

    /** The verdict on a failure a loop of the session met; an uncoded exception ends the session. */
    public static SessionFailure of(Throwable failure) {
        if (!(failure instanceof SqlStreamsException coded)) {
            return RESTARTABLE;
        }
        Code code = coded.code();
        if (code == Code.SQL0107) {
            return SUSPENDED;
        }
        if (code == Code.SQL0014 || code == Code.SQL0005) {
            return GONE;
        }
        return code == Code.SQL0012 || code == Code.SQL0113 ? RESTARTABLE : RETRIED;
    }

    public boolean endsSession() {
        return this != RETRIED;
    }

    /** Rethrows {@code failure} when it ends the session; otherwise returns, so the caller retries. */
    static void rethrowIfEnding(SqlStreamsException failure) {
        if (of(failure).endsSession()) {
            throw failure;
        }
    }
}
