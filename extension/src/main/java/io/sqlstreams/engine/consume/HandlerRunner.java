package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.Map;
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
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.CauseChain;
import io.sqlstreams.engine.HeadersDocument;
import io.sqlstreams.engine.telemetry.ProcessTrace;
import io.sqlstreams.engine.context.Engine;
import jakarta.json.bind.JsonbException;

/**
 * Runs one delivery's handler on the host's executor under its timeout, recording the start of the run on the
 * handler's thread first (a delivery that never reached its handler did not run). A handler the host interrupts
 * (a server stopping the application) is handed back unrun-counted, as deferred. At the timeout the handler thread
 * is interrupted; a handler that has not returned TimeoutGrace later is abandoned: the attempt is recorded as a
 * failure and the thread is left to finish on its own (counted). A payload that does not decode is dead. The
 * payload is decoded on the handler's thread, so the one dispatch thread only hands deliveries out. A delivery has
 * one timer at a time (the timeout, then the grace), cancelled as soon as it has an outcome, so none pile up.
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
        Duration timeout = delivery.options().timeout();
        AtomicBoolean timedOut = new AtomicBoolean();
        RoutineWatch routine = new RoutineWatch(counters, engine.environment().clock());
        Future<?> running;
        try {
            running = executor.submit(() -> {
                try {
                    runHandler(delivery, outcome, timedOut);
                } finally {
                    routine.returned();
                }
            });
        } catch (RejectedExecutionException rejected) {
            outcome.complete(new DeliveryOutcome.Retry("the handler executor refused the task: " + rejected));
            return outcome;
        }
        AtomicReference<ScheduledFuture<?>> timer = new AtomicReference<>();
        timer.set(this.timer.schedule(() -> {
            if (interruptIfRunning(outcome, running, timedOut)) {
                ScheduledFuture<?> abandon = this.timer.schedule(
                        () -> abandonIfRunning(outcome, delivery, timeout, routine),
                        timeoutGrace.toNanos(), TimeUnit.NANOSECONDS);
                timer.set(abandon);
                if (outcome.isDone()) {
                    abandon.cancel(false);
                }
            }
        }, timeout.toNanos(), TimeUnit.NANOSECONDS));
        outcome.whenComplete((done, failure) -> timer.get().cancel(false));
        return outcome;
    }

    /**
     * On the handler's thread: decodes the payload (one that does not decode is dead, and was not a run), records
     * the start, runs the handler and completes the outcome, unless the delivery was abandoned meanwhile.
     */
    private void runHandler(Delivery delivery, CompletableFuture<DeliveryOutcome> outcome, AtomicBoolean timedOut) {
        T payload;
        try {
            payload = engine.codec().decode(delivery.payloadJson(), payloadType);
        } catch (JsonbException | ClassCastException undecodable) {
            outcome.complete(new DeliveryOutcome.Dead(Code.SQL0112.id() + " message " + delivery.messageId()
                    + " cannot be decoded as " + payloadType.getName() + ": " + undecodable.getMessage()));
            return;
        }
        if (!started(delivery, outcome)) {
            return;
        }
        Map<String, String> headers = HeadersDocument.fromJson(delivery.headersJson());
        MessageMeta meta = new MessageMeta(group.streamName(), group.groupName(), delivery.messageId(),
                delivery.routingKey(), delivery.messageKey(), delivery.compactionRank(), delivery.createdAt(),
                delivery.attempt(), delivery.delays(), delivery.options(), headers);
        ProcessTrace trace = engine.telemetry().process(group.streamName(), group.groupName(), delivery.messageId(),
                delivery.attempt(), headers);
        Throwable thrown = null;
        try (ProcessTrace.Current current = trace.makeCurrent()) {
            MessageMeta.callWith(meta, () -> {
                handler.handle(payload);
                return null;
            });
        } catch (Throwable failure) {
            thrown = timedOut.get() ? new TimeoutException("handler interrupted at its "
                    + delivery.options().timeout() + " timeout", failure) : failure;
        }
        DeliveryOutcome result = !timedOut.get() && interruptedByHost(thrown)
                ? new DeliveryOutcome.Deferred("its handler was interrupted by the host (the application"
                        + " or executor is stopping); handed back without counting the attempt")
                : OutcomeClassifier.classify(thrown);
        trace.ended(RunEnds.of(result, delivery), thrown);
        if (!outcome.complete(result)) {
            engine.diagnostics().event(Code.SQL0126, "abandoned handler of message " + delivery.messageId() + " of "
                    + group.describe() + " returned after its attempt was recorded as failed");
        }
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

    /** A handler that failed after it was interrupted at its timeout; its own exception is the cause. */
    private static final class TimeoutException extends Exception {
        private static final long serialVersionUID = 1L;

        TimeoutException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private void abandonIfRunning(CompletableFuture<DeliveryOutcome> outcome, Delivery delivery, Duration timeout,
                                  RoutineWatch routine) {
        if (outcome.complete(new DeliveryOutcome.Retry("hard timeout: the handler did not return within its "
                + timeout + " timeout plus " + timeoutGrace + " grace; its thread was abandoned"))) {
            counters.abandoned.increment();
            routine.abandoned();
            engine.diagnostics().event(Code.SQL0125, "abandoned the handler of message " + delivery.messageId() + " of "
                    + group.describe() + " after " + timeout.plus(timeoutGrace));
        }
    }
}
