package io.sqlstreams.engine.consume;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.sqlstreams.Code;
import io.sqlstreams.engine.context.Engine;

/**
 * SQL0039: a delivery whose dispatch took longer than the session's SlowDispatchThreshold. A dispatch runs from
 * the moment the handler runner takes the delivery to its outcome: decoding, the wait for a handler thread,
 * recording the run's start (exception path), the handler and the classification of what it threw. Runs of the
 * range path and of the exception path count alike. Off when the threshold is zero.
 */
final class SlowDispatchAlarm {
    private final Engine engine;
    private final RegisteredGroup group;
    private final Duration threshold;

    SlowDispatchAlarm(Engine engine, RegisteredGroup group, Duration threshold) {
        this.engine = engine;
        this.group = group;
        this.threshold = threshold;
    }

    /**
     * Starts {@code dispatch} and returns its outcome, completed only once a slow dispatch has been logged, so
     * whoever records the outcome comes after the line.
     */
    CompletableFuture<DeliveryOutcome> timed(Delivery delivery, Supplier<CompletableFuture<DeliveryOutcome>> dispatch) {
        if (threshold.isZero()) {
            return dispatch.get();
        }
        Clock clock = engine.environment().clock();
        Instant started = clock.instant();
        return dispatch.get().whenComplete((outcome, failure) -> {
            Duration took = Duration.between(started, clock.instant());
            if (took.compareTo(threshold) > 0) {
                engine.diagnostics().event(Code.SQL0039, "dispatch of message " + delivery.messageId() + " of "
                        + group.describe() + " took " + took.toMillis() + " ms, over the slow-dispatch threshold of "
                        + threshold.toMillis() + " ms");
            }
        });
    }
}
