package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.sql.SqlWork;

/**
 * The one lock timeout the engine's DDL runs under. Creating or dropping a table waits for locks that producers
 * and consumers hold, and while it waits every later statement on those tables queues behind it; so DDL gives up
 * after {@link #LIMIT} with SQLSTATE 55P03, a transient failure the caller retries.
 */
public final class DdlLockTimeout {
    /** How long a DDL statement waits for a lock. */
    public static final Duration LIMIT = Duration.ofSeconds(2);

    private static final String SETTING = LIMIT.toMillis() + "ms";

    private final Sql sql;

    public DdlLockTimeout(Sql sql) {
        this.sql = sql;
    }

    /** Sets the limit for the rest of the transaction open on {@code connection}. */
    public void apply(Connection connection) throws SQLException {
        set(connection, SETTING);
    }

    /**
     * Runs {@code work} under the limit inside a transaction that goes on afterwards (the caller's), and puts the
     * transaction's own lock timeout back when the work returns. When the work fails the caller rolls back to a
     * savepoint taken before this call, which restores the setting too.
     */
    public <R> R during(Connection connection, SqlWork<R> work) throws SQLException {
        String previous;
        try (BoundStatement read = BoundStatement.prepare(connection, sql.statement("lock_timeout"))) {
            previous = read.querySingle(row -> row.getString("lock_timeout"));
        }
        set(connection, SETTING);
        R result = work.run(connection);
        set(connection, previous);
        return result;
    }

    private void set(Connection connection, String value) throws SQLException {
        try (BoundStatement set = BoundStatement.prepare(connection, sql.statement("set_local_lock_timeout"))) {
            set.bind("lock_timeout", value).querySingle(row -> row.getString("lock_timeout"));
        }
    }
}
