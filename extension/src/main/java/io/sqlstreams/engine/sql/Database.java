package io.sqlstreams.engine.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.Predicate;

import javax.sql.DataSource;

import io.sqlstreams.Code;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.Sleeper;

/**
 * Borrows connections from the caller's {@link DataSource} for one unit of work at a time and retries the
 * unit on a transient failure under the client's retry policy. A connection is never kept between units.
 * Every unit must be safe to repeat: the engine's writes are idempotent or guarded by claims.
 */
public final class Database {
    private final DataSource dataSource;
    private final RetryPolicy retry;
    private final Sleeper sleeper;
    private final Diagnostics diagnostics;

    public Database(DataSource dataSource, RetryPolicy retry, Sleeper sleeper, Diagnostics diagnostics) {
        this.dataSource = dataSource;
        this.retry = retry;
        this.sleeper = sleeper;
        this.diagnostics = diagnostics;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /** Runs {@code work} in one transaction, committed on return and rolled back on failure; retried when transient. */
    public <R> R inTransaction(String what, SqlWork<R> work) {
        return withRetry(what, () -> {
            try (Connection connection = dataSource.getConnection()) {
                return Transactions.run(connection, work);
            }
        });
    }

    /** Runs {@code work} on an auto-commit connection; retried when transient. */
    public <R> R autoCommit(String what, SqlWork<R> work) {
        return withRetry(what, () -> {
            try (Connection connection = dataSource.getConnection()) {
                return work.run(connection);
            }
        });
    }

    /**
     * {@link #inTransaction} for a caller with a time budget: a transient failure is retried only while
     * {@code mayWait} accepts the delay before the next attempt.
     */
    public <R> R inTransaction(String what, Predicate<Duration> mayWait, SqlWork<R> work) {
        return withRetry(what, mayWait, () -> {
            try (Connection connection = dataSource.getConnection()) {
                return Transactions.run(connection, work);
            }
        });
    }

    /** {@link #autoCommit} with the retry bound of {@link #inTransaction(String, Predicate, SqlWork)}. */
    public <R> R autoCommit(String what, Predicate<Duration> mayWait, SqlWork<R> work) {
        return withRetry(what, mayWait, () -> {
            try (Connection connection = dataSource.getConnection()) {
                return work.run(connection);
            }
        });
    }

    /**
     * Runs {@code attempt} up to the policy's maxRetries times, sleeping {@code calculateDelay(n)} between
     * attempts while the failure is transient. A final transient failure is SQL0110, a permanent one SQL0111;
     * a {@link SqlStreamsException} from the work passes through unchanged.
     */
    public <R> R withRetry(String what, Attempt<R> attempt) {
        return withRetry(what, delay -> true, attempt);
    }

    private <R> R withRetry(String what, Predicate<Duration> mayWait, Attempt<R> attempt) {
        int attempts = retry.maxRetries();
        for (int n = 0; ; n++) {
            try {
                return attempt.run();
            } catch (SQLException failure) {
                if (!TransientFailures.isTransient(failure)) {
                    throw DatabaseFailures.translate(what, failure);
                }
                if (n + 1 >= attempts) {
                    throw DatabaseFailures.exhausted(what, attempts, failure);
                }
                if (!mayWait.test(retry.calculateDelay(n))) {
                    throw DatabaseFailures.translate(what, failure);
                }
                int failed = n + 1;
                diagnostics.debug(Code.SQL0129, () -> what + ": attempt " + failed + " of " + attempts
                        + " failed transiently, retrying: " + TransientFailures.describe(failure));
                pause(what, retry.calculateDelay(n), failure);
            }
        }
    }

    private void pause(String what, Duration delay, SQLException failure) {
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            SqlStreamsException stop = new SqlStreamsException(Code.SQL0110,
                    what + " interrupted while waiting to retry: " + TransientFailures.describe(failure), failure);
            stop.addSuppressed(interrupted);
            throw stop;
        }
    }

    /** One retryable attempt. */
    @FunctionalInterface
    public interface Attempt<R> {
        R run() throws SQLException;
    }
}
