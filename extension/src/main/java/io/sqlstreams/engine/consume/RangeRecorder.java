package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ClaimQueries;
import io.sqlstreams.engine.query.ClaimQueries.OutcomeRow;
import io.sqlstreams.engine.query.DeliveryLogStatus;
import io.sqlstreams.engine.query.ExceptionStatus;
import io.sqlstreams.engine.query.GroupIds;

/**
 * Records a range's outcomes in one token-guarded statement: the lease is deleted (or, for shutdown's partial
 * commit, narrowed to the unresolved suffix and given back), an exception row is written for every non-success,
 * and the delivery log gets a row per outcome as the stream's mode says. When the token no longer matches, another
 * instance reclaimed the range and owns its outcome: nothing is written (SQL0003, absorbed and counted).
 */
final class RangeRecorder {
    private final Engine engine;
    private final RegisteredGroup group;
    private final SessionCounterSet counters;
    private final KeyLeases keys;
    private final GroupIds ids;
    private final ClaimQueries queries;
    private final Runnable retriesWritten;

    /** @param retriesWritten run once a recording that left ready exception rows (retries, delays) committed */
    RangeRecorder(Engine engine, RegisteredGroup group, SessionCounterSet counters, KeyLeases keys,
                  Runnable retriesWritten) {
        this.engine = engine;
        this.group = group;
        this.counters = counters;
        this.keys = keys;
        this.retriesWritten = retriesWritten;
        this.ids = group.ids();
        this.queries = new ClaimQueries(engine.sql());
    }

    /** Commits a fully resolved range; false when the lease was lost. */
    boolean commit(ClaimedRange range, ConsumerConfig config) {
        return record(range, range.resolvedPrefix(), null, config);
    }

    /** Records the resolved prefix and gives the rest back for reclaiming; false when the lease was lost. */
    boolean commitPrefix(ClaimedRange range, ConsumerConfig config) {
        long through = range.resolvedThrough();
        if (through == range.low()) {
            return true;
        }
        return record(range, range.resolvedPrefix(), through == range.high() ? null : through, config);
    }

    /** Gives a never-started range back at once, without counting it as a crash. */
    void surrender(ClaimedRange range) {
        engine.database().autoCommit("surrendering " + range.describe() + " of " + group.describe(), connection -> {
            queries.surrender(connection, ids, range.token());
            return null;
        });
    }

    /** Commits {@code outcomes}, the whole range's, on an auto-commit connection; false when the lease was lost. */
    boolean commitOutcomes(ClaimedRange range, List<ClaimedRange.Resolved> outcomes, ConsumerConfig config) {
        return record(range, outcomes, null, config);
    }

    /**
     * Ends a range whose earlier messages were recorded by {@link #advanceIn advances}: commits {@code outcomes},
     * the rest resolved, on an auto-commit connection; with a {@code newLow} gives back what lies above it. False
     * when the lease was lost.
     */
    boolean commitRest(ClaimedRange range, List<ClaimedRange.Resolved> outcomes, Long newLow, ConsumerConfig config) {
        return record(range, outcomes, newLow, config);
    }

    /**
     * Writes {@code outcomes} in the caller's transaction on {@code connection} and moves the range's low to
     * {@code newLow}, keeping its lease; they are counted once {@link #countCommitted committed}. False when the
     * lease was lost and nothing was written.
     */
    boolean advanceIn(Connection connection, ClaimedRange range, List<ClaimedRange.Resolved> outcomes, long newLow,
                      ConsumerConfig config) throws SQLException {
        ClaimQueries.Recorded written = queries.advanceRange(connection, ids, rangeRecord(range, outcomes, newLow,
                config));
        return leaseKept(range, written);
    }

    /** Counts what an {@link #advanceIn advance} wrote, once its transaction committed. */
    void countCommitted(ClaimedRange range, List<ClaimedRange.Resolved> outcomes, ConsumerConfig config) {
        count(range, outcomes, rangeRecord(range, outcomes, null, config));
    }

    /**
     * Writes {@code outcomes} in {@code transaction}, the one their handlers wrote in, and commits it; when the lease
     * was lost the transaction is rolled back instead, the handlers' writes with it. With a {@code newLow} the rest
     * of the range is given back. False when the lease was lost.
     */
    boolean commitIn(HandlerTransaction transaction, ClaimedRange range, List<ClaimedRange.Resolved> outcomes,
                     Long newLow, ConsumerConfig config) throws SQLException {
        ClaimQueries.RangeRecord record = rangeRecord(range, outcomes, newLow, config);
        ClaimQueries.Recorded written = queries.recordRange(transaction.connection(), ids, record);
        if (written.owned()) {
            transaction.commit();
        } else {
            transaction.rollBack();
        }
        return recorded(range, outcomes, record, written);
    }

    private boolean record(ClaimedRange range, List<ClaimedRange.Resolved> outcomes, Long newLow,
                           ConsumerConfig config) {
        ClaimQueries.RangeRecord record = rangeRecord(range, outcomes, newLow, config);
        ClaimQueries.Recorded written = engine.database().autoCommit("committing " + range.describe() + " of "
                + group.describe(), connection -> queries.recordRange(connection, ids, record));
        return recorded(range, outcomes, record, written);
    }

    private ClaimQueries.RangeRecord rangeRecord(ClaimedRange range, List<ClaimedRange.Resolved> outcomes,
                                                 Long newLow, ConsumerConfig config) {
        Duration initialBackoff = config.resolvedExceptionInitialBackoff();
        List<OutcomeRow> rows = outcomes.stream()
                .map(resolved -> row(resolved.delivery(), resolved.outcome(), initialBackoff))
                .toList();
        return new ClaimQueries.RangeRecord(range.token(), newLow, rows, group.deliveryLogMode());
    }

    /** Counts and logs what a recording wrote; false when the lease was lost and nothing was. */
    private boolean recorded(ClaimedRange range, List<ClaimedRange.Resolved> outcomes, ClaimQueries.RangeRecord record,
                             ClaimQueries.Recorded written) {
        int keysHeld = range.keyLeasesHeld();
        if (written.keyLeasesReleased() < keysHeld) {
            keys.warnTakenOver(range, keysHeld - written.keyLeasesReleased());
        }
        if (!leaseKept(range, written)) {
            return false;
        }
        count(range, outcomes, record);
        return true;
    }

    private boolean leaseKept(ClaimedRange range, ClaimQueries.Recorded written) {
        if (!written.owned()) {
            counters.leaseLost.increment();
            engine.diagnostics().debug(Code.SQL0003, () -> "lease of "
                    + range.describe() + " of " + group.describe() + " was taken over; its outcomes were not written");
        }
        return written.owned();
    }

    private void count(ClaimedRange range, List<ClaimedRange.Resolved> outcomes, ClaimQueries.RangeRecord record) {
        outcomes.forEach(resolved -> counters.count(resolved.outcome()));
        long dead = record.outcomes().stream().filter(row -> row.status() == ExceptionStatus.DEAD).count();
        if (dead > 0) {
            engine.diagnostics().event(Code.SQL0028, dead + " message(s) of " + range.describe() + " of "
                    + group.describe() + " dead-lettered (dead_count=" + dead + ")");
        }
        if (record.outcomes().stream().anyMatch(row -> row.status() == ExceptionStatus.READY)) {
            retriesWritten.run();
        }
    }

    /** The exception row and delivery-log row one outcome of a fresh run leaves. */
    private static OutcomeRow row(Delivery delivery, DeliveryOutcome outcome, Duration initialBackoff) {
        if (outcome instanceof DeliveryOutcome.Retry retry) {
            return row(delivery, ExceptionStatus.READY, 0, initialBackoff, retry.error(), DeliveryLogStatus.FAILURE);
        }
        if (outcome instanceof DeliveryOutcome.Delay delay) {
            return row(delivery, ExceptionStatus.READY, 1, delay.after(), delay.text(), DeliveryLogStatus.DELAYED);
        }
        if (outcome instanceof DeliveryOutcome.Dead dead) {
            return row(delivery, ExceptionStatus.DEAD, 0, Duration.ZERO, dead.error(), DeliveryLogStatus.FAILURE);
        }
        if (outcome instanceof DeliveryOutcome.Deferred deferred) {
            return row(delivery, ExceptionStatus.DEFERRED, 0, Duration.ZERO, deferred.reason(),
                    DeliveryLogStatus.DEFERRED);
        }
        if (outcome instanceof DeliveryOutcome.Superseded) {
            return row(delivery, null, 0, Duration.ZERO, "a newer version of the key is its compaction head",
                    DeliveryLogStatus.SUPERSEDED);
        }
        return row(delivery, null, 0, Duration.ZERO, null, DeliveryLogStatus.SUCCESS);
    }

    private static OutcomeRow row(Delivery delivery, ExceptionStatus status, int delays, Duration runAfter,
                                  String error, DeliveryLogStatus logStatus) {
        return new OutcomeRow(delivery.messageId(), delivery.messageKey(), delivery.options().concurrency(), status,
                delays, runAfter, error, logStatus);
    }
}
