package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.sqlstreams.Code;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.loop.Loop;

/**
 * The dispatch loop: takes units off the local queue and runs each under one of MessageConcurrency permits, with
 * the session's {@link UnitRunner}.
 */
final class Dispatcher implements Loop.Body {
    private static final Duration POLL = Duration.ofMillis(50);

    private final Engine engine;
    private final RegisteredGroup group;
    private final LocalQueue queue;
    private final UnitRunner units;
    private final RangeCommitter committer;
    private final int concurrency;
    private final Semaphore permits;

    /** Runs one dispatched unit; the future completes when the unit's last message has its outcome. */
    @FunctionalInterface
    interface UnitRunner {
        CompletableFuture<Void> run(DispatchUnit unit);
    }

    Dispatcher(Engine engine, RegisteredGroup group, LocalQueue queue, UnitRunner units, RangeCommitter committer,
               int concurrency) {
        this.engine = engine;
        this.group = group;
        this.queue = queue;
        this.units = units;
        this.committer = committer;
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
        units.run(next).whenComplete((done, failure) -> permits.release());
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

}
