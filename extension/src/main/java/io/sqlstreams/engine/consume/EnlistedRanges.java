package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.sqlstreams.MessageHandler;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.HostTransactions;

/**
 * Runs the ranges of a handler that writes in the host's transactions, each whole range on one handler thread in id
 * order ({@link EnlistedRange}), each message in a host transaction of its own. The dispatcher hands it one unit per
 * range, and MessageConcurrency bounds how many ranges run at once.
 */
final class EnlistedRanges<T> implements Dispatcher.UnitRunner {
    private final RangeRun.Parts parts;
    private final HandlerInvocation<T> invocation;
    private final MessageHandler<T> handler;
    private final HostTransactions transactions;

    EnlistedRanges(Class<T> payloadType, SessionHandler.Enlisted<T> handler, RangeRun.Parts parts) {
        this.parts = parts;
        this.invocation = new HandlerInvocation<>(parts.engine(), parts.group(), payloadType);
        this.handler = handler.handler();
        this.transactions = handler.transactions();
    }

    @Override
    public CompletableFuture<Void> run(DispatchUnit unit) {
        return RangeRun.execute(parts, unit.range(), done -> new EnlistedRange(unit.range(), done));
    }

    /** How one message's transaction ended. */
    private enum Step { NEXT, STOP }

    /**
     * One range, a host transaction per message: the handler runs in it, and when it succeeds the same transaction
     * records the outcomes resolved since the last commit and moves the lease's low past the message (token-guarded:
     * a lost lease rolls the handler's writes back). A message that did not succeed has its transaction rolled back,
     * and its outcome is written with the next commit, or with the range's last record, which deletes the lease (or,
     * when the lease ran short, gives the rest back). The host rolls a transaction back by itself after the message's
     * timeout and grace; the handler is then abandoned and the rest of the range recorded without it.
     */
    private final class EnlistedRange extends RangeRun {
        private final List<ClaimedRange.Resolved> unrecorded = new ArrayList<>();
        private long recordedThrough;

        EnlistedRange(ClaimedRange range, CompletableFuture<Void> done) {
            super(EnlistedRanges.this.parts, range, done);
            this.recordedThrough = range.low();
        }

        @Override
        protected void runHeld() {
            for (Delivery delivery : range.deliveries()) {
                DeliveryOutcome outcome = unrun(delivery);
                if (outcome != null) {
                    resolved(delivery, outcome);
                } else if (!mayStart(delivery)) {
                    recordRest(resolvedThrough());
                    return;
                } else if (runInTransaction(delivery) == Step.STOP) {
                    return;
                }
            }
            recordRest(null);
        }

        private Step runInTransaction(Delivery delivery) {
            MessageWatch watch = MessageWatch.start(parts.timer(), delivery.options().timeout(),
                    parts.budget().grace(), () -> abandon(delivery));
            try (HostTransactions.HostTransaction transaction = transactions.begin(
                    parts.budget().handlerBound(delivery))) {
                DeliveryOutcome outcome = parts.slowDispatches().timed(delivery, () -> CompletableFuture
                        .completedFuture(invocation.run(delivery, handler::handle, watch::timedOut))).join();
                if (!watch.finished()) {
                    return Step.STOP;
                }
                resolved(delivery, outcome);
                if (!(outcome instanceof DeliveryOutcome.Success)) {
                    return Step.NEXT;
                }
                return commitThrough(transaction, delivery.messageId()) ? Step.NEXT : Step.STOP;
            } catch (Exception failure) {
                watch.finished();
                failed(failure);
                return Step.STOP;
            }
        }

        /** Records what is unrecorded in the message's transaction and commits it; false when the lease was lost. */
        private boolean commitThrough(HostTransactions.HostTransaction transaction, long messageId) throws Exception {
            List<ClaimedRange.Resolved> outcomes = unrecorded();
            boolean owned;
            try (Connection connection = transaction.connection()) {
                owned = parts.recorder().advanceIn(connection, range, outcomes, messageId, parts.config().current());
            }
            if (!owned) {
                return false;
            }
            transaction.commit();
            recorded(outcomes.size(), messageId);
            parts.recorder().countCommitted(range, outcomes, parts.config().current());
            return true;
        }

        /** The range's last record: what is unrecorded, and with a {@code newLow} the rest given back. */
        private void recordRest(Long newLow) {
            try {
                parts.recorder().commitRest(range, unrecorded(), newLow, parts.config().current());
            } catch (SqlStreamsException failure) {
                failed(failure);
            }
        }

        /**
         * On the timer's thread: the message outlived its timeout and grace; the host rolls its transaction back. The
         * range is recorded on a connection of its own: the message failed, and what had not run is deferred.
         */
        private void abandon(Delivery abandoned) {
            String rolledBack = abandoned(abandoned, "handler of message " + abandoned.messageId(),
                    "its host transaction");
            List<ClaimedRange.Resolved> outcomes = new ArrayList<>(unrecorded());
            outcomes.add(new ClaimedRange.Resolved(abandoned, new DeliveryOutcome.Retry("hard timeout: the handler"
                    + " did not return within its " + abandoned.options().timeout() + " timeout plus "
                    + parts.budget().grace() + " grace; its transaction was rolled back")));
            recordAfterAbort(outcomes, recordedThrough(), rolledBack);
        }

        private synchronized void resolved(Delivery delivery, DeliveryOutcome outcome) {
            resolve(delivery, outcome);
            unrecorded.add(new ClaimedRange.Resolved(delivery, outcome));
        }

        private synchronized List<ClaimedRange.Resolved> unrecorded() {
            return List.copyOf(unrecorded);
        }

        private synchronized void recorded(int count, long through) {
            unrecorded.subList(0, count).clear();
            recordedThrough = through;
        }

        private synchronized long recordedThrough() {
            return recordedThrough;
        }
    }
}
