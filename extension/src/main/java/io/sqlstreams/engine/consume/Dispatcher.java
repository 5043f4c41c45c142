package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.sqlstreams.Code;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.loop.Loop;

/**
 * The dispatch loop: takes units off the local queue and runs each under one of MessageConcurrency permits, a key
 * chain message after message. A queued message starts only while its range's lease still holds its
 * {@link LeaseBudget}; otherwise the range waits for a reclaim (SQL0105).
 */
final class Dispatcher<T> implements Loop.Body {
    private static final Duration POLL = Duration.ofMillis(50);

    private final Engine engine;
    private final RegisteredGroup group;
    private final LocalQueue queue;
    private final HandlerRunner<T> handlers;
    private final KeyedRunner<T> keyed;
    private final KeyChainGate gate;
    private final RangeCommitter committer;
    private final LeaseBudget budget;
    private final int concurrency;
    private final Semaphore permits;

    Dispatcher(Engine engine, RegisteredGroup group, LocalQueue queue, HandlerRunner<T> handlers,
               KeyedRunner<T> keyed, KeyChainGate gate, RangeCommitter committer, LeaseBudget budget,
               int concurrency) {
        this.engine = engine;
        this.group = group;
        this.queue = queue;
        this.handlers = handlers;
        this.keyed = keyed;
        this.gate = gate;
        this.committer = committer;
        this.budget = budget;
        this.concurrency = concurrency;
        this.permits = new Semaphore(concurrency);
    }

    @Override
    public void pass(Loop loop) throws InterruptedException {
        DispatchUnit next = queue.poll(POLL);
        if (next == null) {
            return;
        }
        next.deliveries().forEach(delivery -> queue.left());
        if (next.range().stale()) {
            return;
        }
        while (!permits.tryAcquire(POLL.toNanos(), TimeUnit.NANOSECONDS)) {
            if (loop.stopping()) {
                return;
            }
        }
        if (loop.stopping()) {
            permits.release();
            return;
        }
        runUnit(next, 0).whenComplete((done, failure) -> permits.release());
    }

    /** A chain that never reached the queue (the gate refused it, or the session stopped): deferred unrun. */
    void deferUnrun(DispatchUnit chain, String reason) {
        for (Delivery delivery : chain.deliveries()) {
            queue.left();
            committer.record(chain.range(), delivery, new DeliveryOutcome.Deferred(reason));
        }
    }

    /** Waits until {@code deadline} for the handlers in flight to finish. */
    void drainInFlight(Instant deadline, Duration timeout) {
        Duration left = Duration.between(engine.environment().clock().instant(), deadline);
        try {
            if (permits.tryAcquire(concurrency, Math.max(0, left.toNanos()), TimeUnit.NANOSECONDS)) {
                permits.release(concurrency);
            } else {
                engine.diagnostics().event(Code.SQL0121, (concurrency - permits.availablePermits())
                        + " handler(s) of " + group.describe() + " still running after the " + timeout.toMillis()
                        + " ms shutdown timeout; their ranges are left to lease expiry");
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Runs a unit from {@code index} on, message after message. In an ordered chain a message runs once the
     * previous one succeeded, went dead or was superseded; after a failure, delay or deferral the rest of the
     * chain is deferred without running. An exclusive chain runs every message whatever the previous outcome.
     */
    private CompletableFuture<Void> runUnit(DispatchUnit unit, int index) {
        List<Delivery> chain = unit.deliveries();
        ClaimedRange range = unit.range();
        if (index == chain.size()) {
            if (unit.chain()) {
                gate.finished(unit);
            }
            return CompletableFuture.completedFuture(null);
        }
        Delivery delivery = chain.get(index);
        Duration needed = budget.needed(delivery);
        Duration left = Duration.between(engine.environment().clock().instant(), range.leaseDeadline());
        if (left.compareTo(needed) < 0) {
            range.markStale();
            engine.diagnostics().event(Code.SQL0105, "queued message " + delivery.messageId() + " of " + group.describe()
                    + " has " + left.toMillis() + " ms of lease left but needs " + needed.toMillis()
                    + " ms; " + range.describe() + " waits for a reclaim");
            return CompletableFuture.completedFuture(null);
        }
        if (!range.start()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<DeliveryOutcome> run = unit.chain() ? handlers.run(delivery) : keyed.run(delivery);
        return run.thenCompose(outcome -> {
            committer.record(range, delivery, outcome);
            if (unit.kind() != DispatchUnit.Kind.ORDERED_CHAIN || letsTheChainContinue(outcome)) {
                return runUnit(unit, index + 1);
            }
            gate.finished(unit);
            for (Delivery follower : chain.subList(index + 1, chain.size())) {
                committer.record(range, follower, new DeliveryOutcome.Deferred(
                        "an earlier message of the key in the same range did not succeed"));
            }
            return CompletableFuture.completedFuture(null);
        });
    }

    private static boolean letsTheChainContinue(DeliveryOutcome outcome) {
        return outcome instanceof DeliveryOutcome.Success || outcome instanceof DeliveryOutcome.Dead
                || outcome instanceof DeliveryOutcome.Superseded;
    }
}
