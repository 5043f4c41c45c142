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

import io.sqlstreams.Code;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.CauseChain;
import io.sqlstreams.engine.context.Engine;
import jakarta.json.bind.JsonbException;

/**
 * Runs one delivery's handler on the host's executor under its timeout, recording the start of the run on the
 * handler's thread first (a delivery that never reached its handler did not run). A handler the host interrupts
 * (a server stopping the application) is handed back unrun-counted, as deferred. At the timeout the handler thread
 * is interrupted; a handler that has not returned TimeoutGrace later is abandoned: the attempt is recorded as a
 * failure and the thread is left to finish on its own (counted). A payload that does not decode is dead. The
 * timers of a delivery are cancelled as soon as it has an outcome, so they never pile up.
 */
final class HandlerRunner<T> {
    private final Engine engine;
    private final RegisteredGroup group;
    private final Class<T> payloadType;
    private final MessageHandler<T> handler;
    private final ExecutorService executor;
    private final ScheduledExecutorService timer;
    private final Duration timeoutGrace;
    private final SessionCounterSet counters;
    private final SlowDispatchAlarm slowDispatches;

    HandlerRunner(Engine engine, RegisteredGroup group, Class<T> payloadType, MessageHandler<T> handler,
                  ExecutorService executor, ScheduledExecutorService timer, Duration timeoutGrace,
                  SessionCounterSet counters, SlowDispatchAlarm slowDispatches) {
        this.engine = engine;
        this.group = group;
        this.payloadType = payloadType;
        this.handler = handler;
        this.executor = executor;
        this.timer = timer;
        this.timeoutGrace = timeoutGrace;
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
        T payload;
        try {
            payload = engine.codec().decode(delivery.payloadJson(), payloadType);
        } catch (JsonbException | ClassCastException undecodable) {
            outcome.complete(new DeliveryOutcome.Dead(Code.SQL0112.id() + " message " + delivery.messageId()
                    + " cannot be decoded as " + payloadType.getName() + ": " + undecodable.getMessage()));
            return outcome;
        }
        MessageMeta meta = new MessageMeta(group.streamName(), group.groupName(), delivery.messageId(),
                delivery.routingKey(), delivery.messageKey(), delivery.compactionRank(), delivery.createdAt(),
                delivery.attempt(), delivery.delays(), delivery.options());
        Duration timeout = delivery.options().timeout();
        AtomicBoolean timedOut = new AtomicBoolean();
        Future<?> running;
        try {
            running = executor.submit(() -> {
                if (!started(delivery, outcome)) {
                    return;
                }
                Throwable thrown = null;
                try {
                    MessageMeta.callWith(meta, () -> {
                        handler.handle(payload);
                        return null;
                    });
                } catch (Throwable failure) {
                    thrown = timedOut.get() ? new TimeoutException("handler interrupted at its " + timeout
                            + " timeout", failure) : failure;
                }
                DeliveryOutcome result = !timedOut.get() && interruptedByHost(thrown)
                        ? new DeliveryOutcome.Deferred("its handler was interrupted by the host (the application"
                                + " or executor is stopping); handed back without counting the attempt")
                        : OutcomeClassifier.classify(thrown);
                if (!outcome.complete(result)) {
                    engine.diagnostics().event(Code.SQL0126, "abandoned handler of message " + delivery.messageId() + " of "
                            + group.describe() + " returned after its attempt was recorded as failed");
                }
            });
        } catch (RejectedExecutionException rejected) {
            outcome.complete(new DeliveryOutcome.Retry("the handler executor refused the task: " + rejected));
            return outcome;
        }
        ScheduledFuture<?> interrupt = timer.schedule(() -> interruptIfRunning(outcome, running, timedOut),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
        ScheduledFuture<?> abandon = timer.schedule(() -> abandonIfRunning(outcome, delivery, timeout),
                timeout.plus(timeoutGrace).toNanos(), TimeUnit.NANOSECONDS);
        outcome.whenComplete((done, failure) -> {
            interrupt.cancel(false);
            abandon.cancel(false);
        });
        return outcome;
    }

    /**
     * Records the start of the run on the handler's thread; false, with the outcome completed, when the handler
     * must not run: its outcome is already in (abandoned before the executor ran it), its lease is gone, or the
     * start could not be recorded. None of these is a run.
     */
    private static boolean started(Delivery delivery, CompletableFuture<DeliveryOutcome> outcome) {
        if (outcome.isDone()) {
            return false;
        }
        try {
            if (delivery.start().record()) {
                return true;
            }
            outcome.complete(new DeliveryOutcome.Retry("its lease was taken over before the handler started"));
        } catch (SqlStreamsException failure) {
            outcome.complete(new DeliveryOutcome.Retry("the start of its run could not be recorded: "
                    + failure.getMessage()));
        }
        return false;
    }

    /**
     * An interruption this runner did not cause (its timeout sets a flag first): a server interrupts the tasks of
     * an application it stops, before the application can drain them.
     */
    private static boolean interruptedByHost(Throwable thrown) {
        if (thrown == null) {
            return false;
        }
        return CauseChain.of(thrown).stream().anyMatch(InterruptedException.class::isInstance)
                || Thread.currentThread().isInterrupted();
    }

    private static void interruptIfRunning(CompletableFuture<DeliveryOutcome> outcome, Future<?> running,
                                           AtomicBoolean timedOut) {
        if (!outcome.isDone()) {
            timedOut.set(true);
            running.cancel(true);
        }
    }

    /** A handler that failed after it was interrupted at its timeout; its own exception is the cause. */
    private static final class TimeoutException extends Exception {
        private static final long serialVersionUID = 1L;

        TimeoutException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private void abandonIfRunning(CompletableFuture<DeliveryOutcome> outcome, Delivery delivery, Duration timeout) {
        if (outcome.complete(new DeliveryOutcome.Retry("hard timeout: the handler did not return within its "
                + timeout + " timeout plus " + timeoutGrace + " grace; its thread was abandoned"))) {
            counters.abandoned.increment();
            engine.diagnostics().event(Code.SQL0125, "abandoned the handler of message " + delivery.messageId() + " of "
                    + group.describe() + " after " + timeout.plus(timeoutGrace));
        }
    }
}
