package io.sqlstreams.engine.consume;

import java.util.Map;
import java.util.function.BooleanSupplier;

import io.sqlstreams.Code;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.CauseChain;
import io.sqlstreams.engine.HeadersDocument;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.telemetry.ProcessTrace;
import jakarta.json.bind.JsonbException;

/**
 * One run of a handler on the calling thread: decodes the payload (one that does not decode is dead, and was not
 * a run), records the start of the run, then calls the handler with {@link MessageMeta#current()} and the process
 * trace in place, and classifies how it ended. A handler the host interrupts (a server stopping the application)
 * is handed back unrun-counted, as deferred.
 */
final class HandlerInvocation<T> {
    /** What the run calls with the decoded payload. */
    @FunctionalInterface
    interface Call<T> {
        void run(T payload) throws Exception;
    }

    private final Engine engine;
    private final RegisteredGroup group;
    private final Class<T> payloadType;

    HandlerInvocation(Engine engine, RegisteredGroup group, Class<T> payloadType) {
        this.engine = engine;
        this.group = group;
        this.payloadType = payloadType;
    }

    /**
     * A delivery made ready to run: its decoded payload and what the handler sees of it, or, for a payload that
     * does not decode, its dead outcome.
     */
    record Prepared<T>(Delivery delivery, T payload, MessageMeta meta, Map<String, String> headers,
                       DeliveryOutcome undecodable) {
    }

    Prepared<T> prepare(Delivery delivery) {
        T payload;
        try {
            payload = engine.codec().decode(delivery.payloadJson(), payloadType);
        } catch (JsonbException | ClassCastException undecodable) {
            return new Prepared<>(delivery, null, null, null, new DeliveryOutcome.Dead(Code.SQL0112.id()
                    + " message " + delivery.messageId() + " cannot be decoded as " + payloadType.getName() + ": "
                    + undecodable.getMessage()));
        }
        Map<String, String> headers = HeadersDocument.fromJson(delivery.headersJson());
        MessageMeta meta = new MessageMeta(group.streamName(), group.groupName(), delivery.messageId(),
                delivery.routingKey(), delivery.messageKey(), delivery.compactionRank(), delivery.createdAt(),
                delivery.attempt(), delivery.delays(), delivery.options(), headers);
        return new Prepared<>(delivery, payload, meta, headers, null);
    }

    /** The telemetry of a prepared delivery's run. */
    ProcessTrace trace(Prepared<T> prepared) {
        Delivery delivery = prepared.delivery();
        return engine.telemetry().process(group.streamName(), group.groupName(), delivery.messageId(),
                delivery.attempt(), prepared.headers());
    }

    /** @param timedOut whether the run's timeout interrupted it, asked once the call has returned or thrown */
    DeliveryOutcome run(Delivery delivery, Call<T> call, BooleanSupplier timedOut) {
        Prepared<T> prepared = prepare(delivery);
        if (prepared.undecodable() != null) {
            return prepared.undecodable();
        }
        DeliveryOutcome unstarted = startOrWhyNot(delivery);
        if (unstarted != null) {
            return unstarted;
        }
        ProcessTrace trace = trace(prepared);
        Throwable thrown = null;
        try (ProcessTrace.Current current = trace.makeCurrent()) {
            MessageMeta.callWith(prepared.meta(), () -> {
                call.run(prepared.payload());
                return null;
            });
        } catch (Throwable failure) {
            thrown = failure;
        }
        DeliveryOutcome result = outcome(delivery, thrown, timedOut.getAsBoolean());
        trace.ended(RunEnds.of(result, delivery), thrown);
        return result;
    }

    /**
     * How a run that threw {@code thrown} (null: returned) ended: a failure after the timeout's interrupt is a timeout,
     * an interrupt by the host hands the delivery back unrun-counted, anything else as the classifier says.
     */
    static DeliveryOutcome outcome(Delivery delivery, Throwable thrown, boolean timedOut) {
        if (timedOut && thrown != null) {
            return OutcomeClassifier.classify(new TimeoutException("handler interrupted at its "
                    + delivery.options().timeout() + " timeout", thrown));
        }
        if (!timedOut && interruptedByHost(thrown)) {
            return new DeliveryOutcome.Deferred("its handler was interrupted by the host (the application"
                    + " or executor is stopping); handed back without counting the attempt");
        }
        return OutcomeClassifier.classify(thrown);
    }

    /**
     * Records the start of the run; null when the handler may run, else why not: its lease is gone, or the start
     * could not be recorded. Neither is a run.
     */
    private static DeliveryOutcome startOrWhyNot(Delivery delivery) {
        try {
            if (delivery.records().start()) {
                return null;
            }
            return new DeliveryOutcome.Retry("its lease was taken over before the handler started");
        } catch (SqlStreamsException failure) {
            return new DeliveryOutcome.Retry("the start of its run could not be recorded: " + failure.getMessage());
        }
    }

    /**
     * An interruption the runner did not cause (its timeout is told apart first): a server interrupts the tasks
     * of an application it stops, before the application can drain them.
     */
    private static boolean interruptedByHost(Throwable thrown) {
        if (thrown == null) {
            return false;
        }
        return CauseChain.of(thrown).stream().anyMatch(InterruptedException.class::isInstance)
                || Thread.currentThread().isInterrupted();
    }

    /** What a handler interrupted at its timeout threw, classified as an ordinary failure. */
    private static final class TimeoutException extends Exception {
        private static final long serialVersionUID = 1L;

        TimeoutException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
