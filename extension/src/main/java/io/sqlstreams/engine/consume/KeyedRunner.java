package io.sqlstreams.engine.consume;

import java.util.concurrent.CompletableFuture;

import io.sqlstreams.Concurrency;
import io.sqlstreams.SqlStreamsException;

/**
 * Runs one delivery under its own key lease when its policy holds a key (the exception path, and a compacted
 * message of a fresh range): a busy key defers it, a compacted message
 * that lost its head is superseded, both without running; otherwise the handler runs and the lease is
 * released once it returns. A failure to take the lease counts as the attempt's failure.
 */
final class KeyedRunner<T> {
    private final HandlerRunner<T> runner;
    private final KeyLeases keys;
    private final LeaseBudget budget;

    KeyedRunner(HandlerRunner<T> runner, KeyLeases keys, LeaseBudget budget) {
        this.runner = runner;
        this.keys = keys;
        this.budget = budget;
    }

    CompletableFuture<DeliveryOutcome> run(Delivery delivery) {
        if (!KeyLeases.needed(delivery)) {
            return runner.run(delivery);
        }
        KeyLeases.Lease lease;
        try {
            lease = keys.take(delivery, budget.needed(delivery));
        } catch (SqlStreamsException failure) {
            return CompletableFuture.completedFuture(new DeliveryOutcome.Retry("could not take the message key lease: "
                    + failure.getMessage()));
        }
        return switch (lease.verdict()) {
            case BUSY -> CompletableFuture.completedFuture(new DeliveryOutcome.Deferred(
                    delivery.options().concurrency() == Concurrency.ORDERED
                            ? "an earlier message of the key is unresolved or another delivery held the key"
                            : "another delivery held the message key"));
            case SUPERSEDED -> CompletableFuture.completedFuture(new DeliveryOutcome.Superseded());
            case ACQUIRED -> runner.run(delivery).thenApply(outcome -> {
                releaseQuietly(delivery, lease.token());
                return outcome;
            });
        };
    }

    private void releaseQuietly(Delivery delivery, String token) {
        try {
            keys.release(delivery, token);
        } catch (SqlStreamsException failure) {
            // the lease expires on its own; a later claimant takes it over
        }
    }
}
