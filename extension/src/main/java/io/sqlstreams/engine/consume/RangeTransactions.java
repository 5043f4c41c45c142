package io.sqlstreams.engine.consume;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.TransactionalHandler;

/**
 * Runs the ranges of a transactional handler, each whole range in one transaction on one handler thread
 * ({@link RangeTransaction}). The dispatcher hands it one unit per range, and MessageConcurrency bounds how many
 * ranges run at once. With a batch handler, a range's messages go to it in one call first ({@link BatchAttempt}).
 */
final class RangeTransactions<T> implements Dispatcher.UnitRunner {
    private final RangeRun.Parts parts;
    private final HandlerInvocation<T> invocation;
    private final TransactionalHandler<T> handler;
    private final BatchAttempt<T> batches;

    /** @param handler the session's handler; with a batch handler, a range's batch goes to that first */
    RangeTransactions(Class<T> payloadType, SessionHandler.Transactional<T> handler, RangeRun.Parts parts) {
        this.parts = parts;
        this.invocation = new HandlerInvocation<>(parts.engine(), parts.group(), payloadType);
        this.handler = handler.handler();
        this.batches = handler.batches() == null ? null
                : new BatchAttempt<>(invocation, handler.batches(), parts.timer(), parts.budget().grace());
    }

    @Override
    public CompletableFuture<Void> run(DispatchUnit unit) {
        return RangeRun.execute(parts, unit.range(), done -> new RangeTransaction(unit.range(), done));
    }

    /** How a run of the range's messages ended. */
    private enum End { ALL_RESOLVED, STOPPED_EARLY, ABANDONED }

    /**
     * One range in one transaction: each message runs in id order under a savepoint and its own timeout
     * ({@link MessageWatch}); the range's outcome rows are written in the same transaction, which commits once, or
     * rolls back, handler writes included, when the lease was lost. When too little lease is left for the next
     * message, the resolved prefix commits and the rest is given back for a reclaim. A message that outlives its
     * timeout and grace is abandoned: the transaction is aborted and the range recorded without it: the abandoned
     * message failed, a success rolled back with it is deferred, and so is what had not run.
     */
    private final class RangeTransaction extends RangeRun {
        private volatile HandlerTransaction transaction;

        RangeTransaction(ClaimedRange range, CompletableFuture<Void> done) {
            super(RangeTransactions.this.parts, range, done);
        }

        @Override
        protected void runHeld() {
            HandlerTransaction opened;
            try {
                opened = HandlerTransaction.begin(parts.engine().database().dataSource());
            } catch (SQLException failure) {
                failed(failure);
                return;
            }
            transaction = opened;
            try {
                End end = runMessages();
                if (end != End.ABANDONED) {
                    Long newLow = end == End.ALL_RESOLVED ? null : resolvedThrough();
                    parts.recorder().commitIn(opened, range, resolvedSoFar(), newLow, parts.config().current());
                }
            } catch (SQLException | SqlStreamsException failure) {
                if (!opened.aborted()) {
                    failed(failure);
                }
            } finally {
                closeQuietly(opened);
            }
        }

        private void closeQuietly(HandlerTransaction opened) {
            try {
                opened.close();
            } catch (SQLException broken) {
                // the pool discards a broken connection; its transaction died with it
            }
        }

        private End runMessages() {
            if (batches != null) {
                BatchAttempt.Result batch = runBatch();
                if (batch != BatchAttempt.Result.FALL_BACK) {
                    return batch == BatchAttempt.Result.ABANDONED ? End.ABANDONED : End.ALL_RESOLVED;
                }
            }
            return runOneByOne();
        }

        /** The range's runnable messages in one call; falls back when there are fewer than two or too little lease. */
        private BatchAttempt.Result runBatch() {
            List<Delivery> runnable = range.deliveries().stream().filter(delivery -> unrun(delivery) == null)
                    .toList();
            Delivery longest = runnable.stream()
                    .max(Comparator.comparing(delivery -> delivery.options().timeout())).orElse(null);
            if (runnable.size() < 2 || !mayStart(longest)) {
                return BatchAttempt.Result.FALL_BACK;
            }
            Map<Long, DeliveryOutcome> outcomes = new HashMap<>();
            BatchAttempt.Result result = batches.run(runnable, transaction, longest.options().timeout(),
                    () -> abandonBatch(longest), outcomes);
            if (result == BatchAttempt.Result.ALL_SUCCEEDED) {
                for (Delivery delivery : range.deliveries()) {
                    DeliveryOutcome unrun = unrun(delivery);
                    resolve(delivery, unrun != null ? unrun : outcomes.get(delivery.messageId()));
                }
            }
            return result;
        }

        private End runOneByOne() {
            for (Delivery delivery : range.deliveries()) {
                DeliveryOutcome outcome = unrun(delivery);
                if (outcome == null) {
                    if (!mayStart(delivery)) {
                        return End.STOPPED_EARLY;
                    }
                    MessageWatch watch = MessageWatch.start(parts.timer(), delivery.options().timeout(),
                            parts.budget().grace(), () -> abandon(delivery));
                    outcome = parts.slowDispatches().timed(delivery, () -> CompletableFuture.completedFuture(
                            invocation.run(delivery, payload -> MessageSavepoint.call(handler, payload, transaction),
                                    watch::timedOut))).join();
                    if (!watch.finished()) {
                        return End.ABANDONED;
                    }
                }
                resolve(delivery, outcome);
            }
            return End.ALL_RESOLVED;
        }

        /**
         * On the timer's thread: the message outlived its timeout and grace. Its transaction is aborted under it and
         * the range recorded on a connection of its own: the message failed, a success rolled back with it is
         * deferred, and so is what had not run. The thread is left to return on its own (counted).
         */
        private void abandon(Delivery abandoned) {
            transaction.abort();
            String rolledBack = abandoned(abandoned, "handler of message " + abandoned.messageId(), transaction());
            List<ClaimedRange.Resolved> outcomes = new ArrayList<>();
            for (ClaimedRange.Resolved earlier : resolvedSoFar()) {
                outcomes.add(earlier.outcome() instanceof DeliveryOutcome.Success
                        ? new ClaimedRange.Resolved(earlier.delivery(), new DeliveryOutcome.Deferred(rolledBack))
                        : earlier);
            }
            outcomes.add(new ClaimedRange.Resolved(abandoned, new DeliveryOutcome.Retry("hard timeout: the handler"
                    + " did not return within its " + abandoned.options().timeout() + " timeout plus "
                    + parts.budget().grace() + " grace; its transaction was aborted")));
            recordAfterAbort(outcomes, range.low(), rolledBack);
        }

        /** The batch call outlived its timeout and grace: every message of the range runs again, alone. */
        private void abandonBatch(Delivery longest) {
            transaction.abort();
            recordAfterAbort(List.of(), range.low(), abandoned(longest, "batch call of " + range.describe(),
                    transaction()));
        }

        private String transaction() {
            return "the transaction of " + range.describe();
        }
    }
}
