package io.sqlstreams.engine.consume;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Runs the units of a plain handler: a single message, or a key chain message after message. A queued message
 * starts only while its range's lease holds its {@link LeaseBudget}, renewed when it must be
 * ({@link RangeLeaseRenewal}). Each outcome goes to the range's commit as it arrives.
 */
final class ChainRunner<T> implements Dispatcher.UnitRunner {
    private final HandlerRunner<T> handlers;
    private final KeyedRunner<T> keyed;
    private final KeyChainGate gate;
    private final RangeCommitter committer;
    private final RangeLeaseRenewal renewal;

    ChainRunner(HandlerRunner<T> handlers, KeyedRunner<T> keyed, KeyChainGate gate, RangeCommitter committer,
                RangeLeaseRenewal renewal) {
        this.handlers = handlers;
        this.keyed = keyed;
        this.gate = gate;
        this.committer = committer;
        this.renewal = renewal;
    }

    /**
     * Runs a unit from {@code index} on, message after message. In an ordered chain a message runs once the
     * previous one succeeded, went dead or was superseded; after a failure, delay or deferral the rest of the
     * chain is deferred without running. An exclusive chain runs every message whatever the previous outcome.
     */
    @Override
    public CompletableFuture<Void> run(DispatchUnit unit) {
        return runUnit(unit, 0);
    }

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
        if (!renewal.mayStart(range, delivery) || !range.start()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<DeliveryOutcome> run = unit.chain() ? handlers.run(delivery) : keyed.run(delivery);
        return run.thenCompose(outcome -> {
            committer.record(range, delivery, outcome);
            if (unit.kind() != DispatchUnit.Kind.ORDERED_CHAIN || outcome.letsTheOrderedKeyContinue()) {
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
}
