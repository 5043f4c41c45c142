package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The stop of a session with disableGracefulShutdown, raised once when it stops: from then on nothing waits for
 * a handler in flight, and what it leaves unresolved waits for its lease to expire, as after a process exit.
 */
final class Halt {
    private final CompletableFuture<Void> raised = new CompletableFuture<>();

    void raise() {
        raised.complete(null);
    }

    boolean raised() {
        return raised.isDone();
    }

    /**
     * Waits up to {@code bound} for a run's outcome; empty when the halt came first.
     *
     * @throws TimeoutException when neither came within {@code bound}
     */
    Optional<DeliveryOutcome> outcomeUnlessHalted(CompletableFuture<DeliveryOutcome> run, Duration bound)
            throws InterruptedException, ExecutionException, TimeoutException {
        CompletableFuture.anyOf(run, raised).get(bound.toNanos(), TimeUnit.NANOSECONDS);
        return run.isDone() ? Optional.of(run.get()) : Optional.empty();
    }
}
