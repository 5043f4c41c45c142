package io.sqlstreams.engine.maintenance;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import io.sqlstreams.Code;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.JanitorQueries;
import io.sqlstreams.engine.sql.SqlWork;

/**
 * The time one maintenance step may take, retries included. Every transaction of the step runs with its
 * statements bounded by what is left, and a transient failure is retried on the client's retry curve only while
 * the next attempt would still start within the budget (and the policy's attempts last); then it is the step's
 * failure.
 */
final class CleanupBudget {
    private final Engine engine;
    private final JanitorQueries queries;
    private final Clock clock;
    private final Instant deadline;
    private long counted;

    CleanupBudget(Engine engine, JanitorQueries queries, Duration limit) {
        this.engine = engine;
        this.queries = queries;
        this.clock = engine.environment().clock();
        this.deadline = clock.instant().plus(limit);
    }

    /** What is left of the budget; zero once it is spent. */
    Duration remaining() {
        Duration left = Duration.between(clock.instant(), deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }

    boolean spent() {
        return remaining().isZero();
    }

    /** Adds {@code n} to what the step has removed (or created) so far. */
    void count(long n) {
        counted += n;
    }

    long counted() {
        return counted;
    }

    /** Runs {@code work} in one transaction whose statements may take what is left of the budget. */
    <R> R inTransaction(String what, SqlWork<R> work) {
        return retrying(what, () -> engine.database().inTransactionOnce(what, connection -> {
            queries.limitStatementTime(connection, remaining());
            return work.run(connection);
        }));
    }

    /** Runs {@code work} on an auto-commit connection, handing it what is left of the budget to bound itself by. */
    <R> R autoCommit(String what, BoundedWork<R> work) {
        return retrying(what, () -> {
            Duration left = remaining();
            return engine.database().autoCommitOnce(what, connection -> work.run(connection, left));
        });
    }

    /**
     * Runs {@code batch} in a transaction of its own per batch, until a batch removes fewer than {@code batchSize}
     * rows, {@code maxBatches} have run or the budget is spent; counts the rows each batch removed.
     */
    void sweep(String what, long maxBatches, int batchSize, SqlWork<Integer> batch) {
        for (long n = 0; n < maxBatches && !spent(); n++) {
            int removed = inTransaction(what, batch);
            count(removed);
            if (removed < batchSize) {
                return;
            }
        }
    }

    private <R> R retrying(String what, Supplier<R> attempt) {
        RetryPolicy retry = engine.config().retry();
        for (int n = 0; ; n++) {
            try {
                return attempt.get();
            } catch (SqlStreamsException failure) {
                Duration delay = retry.calculateDelay(n);
                if (!failure.isTransient() || n + 1 >= retry.maxRetries() || remaining().compareTo(delay) <= 0) {
                    throw failure;
                }
                int failed = n + 1;
                engine.diagnostics().debug(Code.SQL0129, () -> what + ": attempt " + failed
                        + " failed transiently, retrying within the cleanup timeout: " + failure.getMessage());
                pause(what, delay, failure);
            }
        }
    }

    private void pause(String what, Duration delay, SqlStreamsException failure) {
        try {
            engine.environment().sleeper().sleep(delay);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            SqlStreamsException stop = new SqlStreamsException(Code.SQL0110,
                    what + " interrupted while waiting to retry: " + failure.getMessage(), failure);
            stop.addSuppressed(interrupted);
            throw stop;
        }
    }

    /** Work on a borrowed connection that bounds its own statements by the time it is given. */
    @FunctionalInterface
    interface BoundedWork<R> {
        R run(Connection connection, Duration limit) throws SQLException;
    }
}
