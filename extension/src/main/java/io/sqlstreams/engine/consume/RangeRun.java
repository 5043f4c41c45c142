package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;

/**
 * One claimed range that a handler thread runs whole, message after message in id order, with what every such run
 * shares: the keys held first ({@link RangeKeyHold}); a message whose ordered key did not succeed earlier in the
 * range deferred unrun; the lease checked before each message; and, once a handler outlived its timeout and grace,
 * the range recorded on a connection of its own. A subclass decides the transactions: one for the whole range, or
 * one per message.
 */
abstract class RangeRun {
    protected final Parts parts;
    protected final ClaimedRange range;
    private final CompletableFuture<Void> done;
    private final RoutineWatch routine;
    private final List<ClaimedRange.Resolved> resolved = new ArrayList<>();
    private final Set<String> stoppedKeys = new HashSet<>();
    private final Set<String> orderedKeys = new HashSet<>();
    private RangeKeyHold keyHold;

    /** What the session lends its range runs. */
    record Parts(Engine engine, RegisteredGroup group, ExecutorService handlerExecutor, ScheduledExecutorService timer,
                 LeaseBudget budget, KeyLeases keys, RangeRecorder recorder, RangeCommitter committer,
                 GroupConfigCache config, SessionCounterSet counters, SlowDispatchAlarm slowDispatches) {
    }

    protected RangeRun(Parts parts, ClaimedRange range, CompletableFuture<Void> done) {
        this.parts = parts;
        this.range = range;
        this.done = done;
        this.routine = new RoutineWatch(parts.counters(), parts.engine().environment().clock());
        DispatchUnit.of(range).stream().filter(unit -> unit.kind() == DispatchUnit.Kind.ORDERED_CHAIN)
                .forEach(chain -> orderedKeys.add(chain.messageKey()));
    }

    /** Runs {@code run} on the handler executor; the future completes once the range settled. */
    static CompletableFuture<Void> execute(Parts parts, ClaimedRange range,
                                           Function<CompletableFuture<Void>, RangeRun> run) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            parts.handlerExecutor().execute(run.apply(done)::run);
        } catch (RejectedExecutionException refused) {
            parts.engine().diagnostics().event(Code.SQL0122, "the handler executor of " + parts.group().describe()
                    + " refused " + range.describe() + "; it is reclaimed after its lease: " + refused);
            done.complete(null);
        }
        return done;
    }

    private void run() {
        try {
            if (range.start()) {
                keyHold = RangeKeyHold.take(parts.keys(), range, parts.budget());
                runHeld();
                keyHold.releaseOwnLeases();
            }
        } finally {
            routine.returned();
            settled();
        }
    }

    /** Runs the range's messages, its keys held, and records them. */
    protected abstract void runHeld();

    /**
     * What {@code delivery} gets without running: its key decided it, or an earlier message of its ordered key in
     * the range did not succeed; null when it runs.
     */
    protected final DeliveryOutcome unrun(Delivery delivery) {
        DeliveryOutcome outcome = keyHold.unrun(delivery);
        if (outcome == null && stoppedKeys.contains(delivery.messageKey())) {
            outcome = new DeliveryOutcome.Deferred("an earlier message of the key in the same range did not succeed");
        }
        return outcome;
    }

    /** Whether the next message may start: the thread was not interrupted and enough lease is left for it. */
    protected final boolean mayStart(Delivery delivery) {
        if (Thread.currentThread().isInterrupted()) {
            return false;
        }
        Duration needed = parts.budget().needed(delivery);
        Duration left = Duration.between(parts.engine().environment().clock().instant(), range.leaseDeadline());
        if (left.compareTo(needed) >= 0) {
            return true;
        }
        parts.engine().diagnostics().event(Code.SQL0105, "message " + delivery.messageId() + " of "
                + parts.group().describe() + " has " + left.toMillis() + " ms of lease left but needs "
                + needed.toMillis() + " ms; " + range.describe() + " commits what ran and gives the rest back for a"
                + " reclaim");
        return false;
    }

    protected final synchronized void resolve(Delivery delivery, DeliveryOutcome outcome) {
        resolved.add(new ClaimedRange.Resolved(delivery, outcome));
        if (orderedKeys.contains(delivery.messageKey()) && !outcome.letsTheOrderedKeyContinue()) {
            stoppedKeys.add(delivery.messageKey());
        }
    }

    protected final synchronized List<ClaimedRange.Resolved> resolvedSoFar() {
        return List.copyOf(resolved);
    }

    /** The id of the last message resolved, or the range's low when none was. */
    protected final synchronized long resolvedThrough() {
        return resolved.isEmpty() ? range.low() : resolved.get(resolved.size() - 1).delivery().messageId();
    }

    /** The range's transaction failed: nothing more of it is recorded here; it is reclaimed after its lease. */
    protected final void failed(Exception failure) {
        range.markStale();
        parts.engine().diagnostics().event(Code.SQL0123, "the transaction of " + range.describe() + " of "
                + parts.group().describe() + " failed and was rolled back; the range is reclaimed after its lease: "
                + failure.getMessage());
    }

    /** Counts and logs the abandoned routine of {@code timed}; returns why the writes with it were rolled back. */
    protected final String abandoned(Delivery timed, String what, String transaction) {
        parts.counters().abandoned.increment();
        routine.abandoned();
        Duration bound = parts.budget().handlerBound(timed);
        parts.engine().diagnostics().event(Code.SQL0125, "abandoned the " + what + " of " + parts.group().describe()
                + " after " + bound + "; " + transaction + " was aborted and rolled back");
        return "rolled back with " + transaction + " when the " + what + " outlived its timeout";
    }

    /**
     * After an abandoned handler: records {@code outcomes}, those not yet recorded in id order, and every message
     * after them as deferred unless its key decided, on a connection of its own, and settles the range.
     */
    protected final void recordAfterAbort(List<ClaimedRange.Resolved> outcomes, long recordedThrough,
                                          String rolledBack) {
        List<ClaimedRange.Resolved> all = new ArrayList<>(outcomes);
        long after = outcomes.isEmpty() ? recordedThrough : outcomes.get(outcomes.size() - 1).delivery().messageId();
        for (Delivery rest : range.deliveries()) {
            if (rest.messageId() > after) {
                DeliveryOutcome unrun = keyHold.unrun(rest);
                all.add(new ClaimedRange.Resolved(rest, unrun != null ? unrun
                        : new DeliveryOutcome.Deferred("not run: " + rolledBack)));
            }
        }
        try {
            parts.recorder().commitOutcomes(range, all, parts.config().current());
        } catch (SqlStreamsException failure) {
            range.markStale();
            parts.engine().diagnostics().event(Code.SQL0123, "commit of " + range.describe() + " of "
                    + parts.group().describe() + " after an abandoned handler failed; it is reclaimed after its lease: "
                    + failure.getMessage());
        }
        settled();
    }

    private void settled() {
        parts.committer().settledByItsRun(range);
        done.complete(null);
    }
}
