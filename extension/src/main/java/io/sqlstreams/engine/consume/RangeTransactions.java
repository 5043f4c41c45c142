package io.sqlstreams.engine.consume;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.TransactionalHandler;
import io.sqlstreams.engine.context.Engine;

/**
 * Runs the ranges of a transactional handler, each whole range in one transaction on one handler thread
 * ({@link RangeTransaction}). The dispatcher hands it one unit per range, and MessageConcurrency bounds how many
 * ranges run at once. With a batch handler, a range's messages go to it in one call first ({@link BatchAttempt}).
 */
final class RangeTransactions<T> implements Dispatcher.UnitRunner {
    private final Engine engine;
    private final RegisteredGroup group;
    private final HandlerInvocation<T> invocation;
    private final TransactionalHandler<T> handler;
    private final BatchAttempt<T> batches;
    private final ExecutorService executor;
    private final ScheduledExecutorService timer;
    private final LeaseBudget budget;
    private final KeyLeases keys;
    private final RangeRecorder recorder;
    private final RangeCommitter committer;
    private final GroupConfigCache config;
    private final SessionCounterSet counters;
    private final SlowDispatchAlarm slowDispatches;

    /** @param handler the session's handler; with a batch handler, a range's batch goes to that first */
    RangeTransactions(Engine engine, RegisteredGroup group, Class<T> payloadType,
                      SessionHandler.Transactional<T> handler, SessionParts parts) {
        this.engine = engine;
        this.group = group;
        this.invocation = new HandlerInvocation<>(engine, group, payloadType);
        this.handler = handler.handler();
        this.batches = handler.batches() == null ? null
                : new BatchAttempt<>(invocation, handler.batches(), parts.timer(), parts.budget().grace());
        this.executor = parts.handlerExecutor();
        this.timer = parts.timer();
        this.budget = parts.budget();
        this.keys = parts.keys();
        this.recorder = parts.recorder();
        this.committer = parts.committer();
        this.config = parts.config();
        this.counters = parts.counters();
        this.slowDispatches = parts.slowDispatches();
    }

    /** What the session lends its range runner. */
    record SessionParts(ExecutorService handlerExecutor, ScheduledExecutorService timer, LeaseBudget budget,
                        KeyLeases keys, RangeRecorder recorder, RangeCommitter committer, GroupConfigCache config,
                        SessionCounterSet counters, SlowDispatchAlarm slowDispatches) {
    }

    @Override
    public CompletableFuture<Void> run(DispatchUnit unit) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        RangeTransaction run = new RangeTransaction(unit.range(), done);
        try {
            executor.execute(run::run);
        } catch (RejectedExecutionException refused) {
            engine.diagnostics().event(Code.SQL0122, "the handler executor of " + group.describe() + " refused "
                    + unit.range().describe() + "; it is reclaimed after its lease: " + refused);
            done.complete(null);
        }
        return done;
    }

    /** How a run of the range's messages ended. */
    private enum End { ALL_RESOLVED, STOPPED_EARLY, ABANDONED }

    /**
     * One range in one transaction: its keys are held first ({@link RangeKeyHold}), then each message runs in id
     * order under a savepoint and its own timeout ({@link MessageWatch}); the range's outcome rows are written in the
     * same transaction, which commits once, or rolls back, handler writes included, when the lease was lost. A
     * message whose ordered key failed earlier in the range is deferred unrun. When too little lease is left for the
     * next message, the resolved prefix commits and the rest is given back for a reclaim. A message that outlives its
     * timeout and grace is abandoned: the transaction is aborted and the range recorded without it: the abandoned
     * message failed, a success rolled back with it is deferred, and so is what had not run.
     */
    private final class RangeTransaction {
        private final ClaimedRange range;
        private final CompletableFuture<Void> done;
        private final RoutineWatch routine = new RoutineWatch(counters, engine.environment().clock());
        private final List<ClaimedRange.Resolved> resolved = new ArrayList<>();
        private final Set<String> stoppedKeys = new HashSet<>();
        private final Set<String> orderedKeys = new HashSet<>();
        private volatile HandlerTransaction transaction;
        private RangeKeyHold keyHold;

        RangeTransaction(ClaimedRange range, CompletableFuture<Void> done) {
            this.range = range;
            this.done = done;
            DispatchUnit.of(range).stream().filter(unit -> unit.kind() == DispatchUnit.Kind.ORDERED_CHAIN)
                    .forEach(chain -> orderedKeys.add(chain.messageKey()));
        }

        void run() {
            try {
                if (range.start()) {
                    keyHold = RangeKeyHold.take(keys, range, budget);
                    runInTransaction();
                    keyHold.releaseOwnLeases();
                }
            } finally {
                routine.returned();
                settled();
            }
        }

        private void runInTransaction() {
            HandlerTransaction opened;
            try {
                opened = HandlerTransaction.begin(engine.database().dataSource());
            } catch (SQLException failure) {
                failed(failure);
                return;
            }
            transaction = opened;
            try {
                End end = runMessages();
                if (end != End.ABANDONED) {
                    Long newLow = end == End.ALL_RESOLVED ? null : resolvedThrough();
                    recorder.commitIn(opened, range, resolvedSoFar(), newLow, config.current());
                }
            } catch (SQLException | SqlStreamsException failure) {
                if (!opened.aborted()) {
                    failed(failure);
                }
            } finally {
                closeQuietly(opened);
            }
        }

        private void failed(Exception failure) {
            range.markStale();
            engine.diagnostics().event(Code.SQL0123, "the transaction of " + range.describe() + " of "
                    + group.describe() + " failed and was rolled back; the range is reclaimed after its lease: "
                    + failure.getMessage());
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
            List<Delivery> runnable = range.deliveries().stream().filter(delivery -> keyHold.unrun(delivery) == null)
                    .toList();
            Delivery longest = runnable.stream()
                    .max(Comparator.comparing(delivery -> delivery.options().timeout())).orElse(null);
            if (runnable.size() < 2 || !hasLeaseFor(longest)) {
                return BatchAttempt.Result.FALL_BACK;
            }
            Map<Long, DeliveryOutcome> outcomes = new HashMap<>();
            BatchAttempt.Result result = batches.run(runnable, transaction, longest.options().timeout(),
                    () -> abandonBatch(longest), outcomes);
            if (result == BatchAttempt.Result.ALL_SUCCEEDED) {
                for (Delivery delivery : range.deliveries()) {
                    DeliveryOutcome unrun = keyHold.unrun(delivery);
                    resolve(delivery, unrun != null ? unrun : outcomes.get(delivery.messageId()));
                }
            }
            return result;
        }

        private End runOneByOne() {
            for (Delivery delivery : range.deliveries()) {
                DeliveryOutcome outcome = keyHold.unrun(delivery);
                if (outcome == null && stoppedKeys.contains(delivery.messageKey())) {
                    outcome = new DeliveryOutcome.Deferred(
                            "an earlier message of the key in the same range did not succeed");
                }
                if (outcome == null) {
                    if (Thread.currentThread().isInterrupted() || !hasLeaseFor(delivery)) {
                        return End.STOPPED_EARLY;
                    }
                    MessageWatch watch = MessageWatch.start(timer, delivery.options().timeout(), budget.grace(),
                            () -> abandon(delivery));
                    outcome = slowDispatches.timed(delivery, () -> CompletableFuture.completedFuture(
                            invocation.run(delivery, payload -> MessageSavepoint.call(handler, payload, transaction),
                                    watch::timedOut))).join();
                    if (!watch.finished()) {
                        return End.ABANDONED;
                    }
                }
                resolve(delivery, outcome);
                if (orderedKeys.contains(delivery.messageKey()) && !outcome.letsTheOrderedKeyContinue()) {
                    stoppedKeys.add(delivery.messageKey());
                }
            }
            return End.ALL_RESOLVED;
        }

        private synchronized void resolve(Delivery delivery, DeliveryOutcome outcome) {
            resolved.add(new ClaimedRange.Resolved(delivery, outcome));
        }

        /**
         * On the timer's thread: the message outlived its timeout and grace. Its transaction is aborted under it and
         * the range recorded on a connection of its own: the message failed, a success rolled back with it is
         * deferred, and so is what had not run. The thread is left to return on its own (counted).
         */
        private void abandon(Delivery abandoned) {
            String rolledBack = aborted(abandoned, "handler of message " + abandoned.messageId());
            List<ClaimedRange.Resolved> outcomes = new ArrayList<>();
            for (ClaimedRange.Resolved earlier : resolvedSoFar()) {
                outcomes.add(earlier.outcome() instanceof DeliveryOutcome.Success
                        ? new ClaimedRange.Resolved(earlier.delivery(), new DeliveryOutcome.Deferred(rolledBack))
                        : earlier);
            }
            outcomes.add(new ClaimedRange.Resolved(abandoned, new DeliveryOutcome.Retry("hard timeout: the handler"
                    + " did not return within its " + abandoned.options().timeout() + " timeout plus "
                    + budget.grace() + " grace; its transaction was aborted")));
            recordAfterAbort(outcomes, rolledBack);
        }

        /** The batch call outlived its timeout and grace: every message of the range runs again, alone. */
        private void abandonBatch(Delivery longest) {
            recordAfterAbort(List.of(), aborted(longest, "batch call of " + range.describe()));
        }

        /** Aborts the transaction, counts and logs the abandoned routine; returns why the rest was rolled back. */
        private String aborted(Delivery timed, String what) {
            transaction.abort();
            counters.abandoned.increment();
            routine.abandoned();
            Duration bound = timed.options().timeout().plus(budget.grace());
            engine.diagnostics().event(Code.SQL0125, "abandoned the " + what + " of " + group.describe() + " after "
                    + bound + "; the transaction of " + range.describe() + " was aborted and rolled back");
            return "rolled back with the transaction of its range when the " + what + " outlived its timeout";
        }

        /** Records {@code outcomes}, the range's first ones, and the rest as deferred unless their key decided. */
        private void recordAfterAbort(List<ClaimedRange.Resolved> outcomes, String rolledBack) {
            List<ClaimedRange.Resolved> all = new ArrayList<>(outcomes);
            for (Delivery rest : range.deliveries().subList(outcomes.size(), range.deliveries().size())) {
                DeliveryOutcome unrun = keyHold.unrun(rest);
                all.add(new ClaimedRange.Resolved(rest, unrun != null ? unrun
                        : new DeliveryOutcome.Deferred("not run: " + rolledBack)));
            }
            try {
                recorder.commitOutcomes(range, all, config.current());
            } catch (SqlStreamsException failure) {
                range.markStale();
                engine.diagnostics().event(Code.SQL0123, "commit of " + range.describe() + " of " + group.describe()
                        + " after an abandoned handler failed; it is reclaimed after its lease: " + failure.getMessage());
            }
            settled();
        }

        private void settled() {
            committer.settledByItsRun(range);
            done.complete(null);
        }

        private boolean hasLeaseFor(Delivery delivery) {
            Duration needed = budget.needed(delivery);
            Duration left = leaseLeft();
            if (left.compareTo(needed) >= 0) {
                return true;
            }
            engine.diagnostics().event(Code.SQL0105, "message " + delivery.messageId() + " of " + group.describe()
                    + " has " + left.toMillis() + " ms of lease left but needs " + needed.toMillis() + " ms; "
                    + range.describe() + " commits what ran and gives the rest back for a reclaim");
            return false;
        }

        private Duration leaseLeft() {
            return Duration.between(engine.environment().clock().instant(), range.leaseDeadline());
        }

        private synchronized List<ClaimedRange.Resolved> resolvedSoFar() {
            return List.copyOf(resolved);
        }

        private synchronized long resolvedThrough() {
            return resolved.isEmpty() ? range.low() : resolved.get(resolved.size() - 1).delivery().messageId();
        }
    }
}
