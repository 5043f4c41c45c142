package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.sqlstreams.Code;
import io.sqlstreams.engine.context.Engine;

/**
 * Runs one delivery's handler on the host's executor under its timeout ({@link HandlerInvocation} on the handler's
 * thread: decoding, the start of the run, the call, its outcome). At the timeout the handler thread
 * is interrupted; a handler that has not returned TimeoutGrace later is abandoned: the attempt is recorded as a
 * failure and the thread is left to finish on its own (counted). The payload is decoded on the handler's thread, so
 * the one dispatch thread only hands deliveries out. A delivery has
 * one timer at a time (the timeout, then the grace), cancelled as soon as it has an outcome, so none pile up.
 * A run the host never starts (its executor refuses the task, or accepts it and then drops it, as a server does once
 * the application is being stopped) did not run: it is handed back deferred, its attempt not counted, at the
 * refusal or at the timeout.
 */
final class HandlerRunner<T> {
    private final Engine engine;
    private final RegisteredGroup group;
    private final HandlerInvocation<T> invocation;
    private final HandlerBody<T> body;
    private final ExecutorService executor;
    private final ScheduledExecutorService timer;
    private final LeaseBudget budget;
    private final SessionCounterSet counters;
    private final SlowDispatchAlarm slowDispatches;

    /** What a run does on the handler's thread with the decoded payload: calls the application's handler. */
    interface HandlerBody<T> {
        void run(Delivery delivery, T payload) throws Exception;

        /** The run of {@code delivery} outlived its timeout and grace and was abandoned on its thread. */
        default void abandoned(Delivery delivery) {
        }
    }

    HandlerRunner(Engine engine, RegisteredGroup group, Class<T> payloadType, HandlerBody<T> body,
                  ExecutorService executor, ScheduledExecutorService timer, LeaseBudget budget,
                  SessionCounterSet counters, SlowDispatchAlarm slowDispatches) {
        this.engine = engine;
        this.group = group;
        this.invocation = new HandlerInvocation<>(engine, group, payloadType);
        this.body = body;
        this.executor = executor;
        this.timer = timer;
        this.budget = budget;
        this.counters = counters;
        this.slowDispatches = slowDispatches;
    }

    /**
     * Starts the handler; the future completes with the outcome, at the latest timeout + grace from now. A run
     * slower than the slow-dispatch threshold is logged first (SQL0039).
     */
    CompletableFuture<DeliveryOutcome> run(Delivery delivery) {
        return slowDispatches.timed(delivery, () -> dispatch(delivery));
    }

    private CompletableFuture<DeliveryOutcome> dispatch(Delivery delivery) {
        CompletableFuture<DeliveryOutcome> outcome = new CompletableFuture<>();
        Duration timeout = delivery.options().timeout();
        AtomicBoolean timedOut = new AtomicBoolean();
        RoutineWatch routine = new RoutineWatch(counters, engine.environment().clock());
        AtomicBoolean taken = new AtomicBoolean();
        Future<?> running;
        try {
            running = executor.submit(() -> {
                if (!taken.compareAndSet(false, true)) {
                    return;
                }
                try {
                    runHandler(delivery, outcome, timedOut);
                } finally {
                    routine.returned();
                }
            });
        } catch (RejectedExecutionException rejected) {
            outcome.complete(notRun("the handler executor refused the task: " + rejected));
            return outcome;
        }
        AtomicReference<ScheduledFuture<?>> timer = new AtomicReference<>();
        timer.set(this.timer.schedule(() -> {
            if (taken.compareAndSet(false, true)) {
                running.cancel(false);
                outcome.complete(notRun("the handler executor had not started the task within its " + timeout
                        + " timeout"));
            } else if (interruptIfRunning(outcome, running, timedOut)) {
                ScheduledFuture<?> abandon = this.timer.schedule(
                        () -> abandonIfRunning(outcome, delivery, timeout, routine),
                        budget.grace().toNanos(), TimeUnit.NANOSECONDS);
                timer.set(abandon);
                if (outcome.isDone()) {
                    abandon.cancel(false);
                }
            }
        }, timeout.toNanos(), TimeUnit.NANOSECONDS));
        outcome.whenComplete((done, failure) -> timer.get().cancel(false));
        return outcome;
    }

    private static DeliveryOutcome notRun(String why) {
        return new DeliveryOutcome.Deferred(why + "; handed back without counting the attempt");
    }

    /** On the handler's thread: runs the delivery and completes the outcome, unless it was abandoned meanwhile. */
    private void runHandler(Delivery delivery, CompletableFuture<DeliveryOutcome> outcome, AtomicBoolean timedOut) {
        DeliveryOutcome result = invocation.run(delivery, payload -> body.run(delivery, payload),
                timedOut::get);
        if (!outcome.complete(result)) {
            engine.diagnostics().event(Code.SQL0126, "abandoned handler of message " + delivery.messageId() + " of "
                    + group.describe() + " returned after its attempt was recorded as failed");
        }
    }

    /** At the timeout: interrupts a handler still running; true when it did (the grace period starts). */
    private static boolean interruptIfRunning(CompletableFuture<DeliveryOutcome> outcome, Future<?> running,
                                              AtomicBoolean timedOut) {
        if (outcome.isDone()) {
            return false;
        }
        timedOut.set(true);
        running.cancel(true);
        return true;
    }

    private void abandonIfRunning(CompletableFuture<DeliveryOutcome> outcome, Delivery delivery, Duration timeout,
                                  RoutineWatch routine) {
        if (outcome.complete(new DeliveryOutcome.Retry("hard timeout: the handler did not return within its "
                + timeout + " timeout plus " + budget.grace() + " grace; its thread was abandoned"))) {
            counters.abandoned.increment();
            routine.abandoned();
            body.abandoned(delivery);
            engine.diagnostics().event(Code.SQL0125, "abandoned the handler of message " + delivery.messageId() + " of "
                    + group.describe() + " after " + budget.handlerBound(delivery));
        }
    }
}
