package io.sqlstreams.engine.janitor;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

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
        return engine.database().inTransaction(what, this::fits, connection -> {
            queries.limitStatementTime(connection, remaining());
            return work.run(connection);
        });
    }

    /** Runs {@code work} on an auto-commit connection, handing it what is left of the budget to bound itself by. */
    <R> R autoCommit(String what, BoundedWork<R> work) {
        return engine.database().autoCommit(what, this::fits, connection -> work.run(connection, remaining()));
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

    /** Whether a retry after {@code delay} still starts within the budget. */
    private boolean fits(Duration delay) {
        return remaining().compareTo(delay) > 0;
    }

    /** Work on a borrowed connection that bounds its own statements by the time it is given. */
    @FunctionalInterface
    interface BoundedWork<R> {
        R run(Connection connection, Duration limit) throws SQLException;
    }
}
