package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.sqlstreams.SqlStreamsException;

/**
 * The key leases a range run in one transaction needs, taken before the transaction begins and without waiting:
 * every key chain's in one round trip under the range's token (given back by the range's commit), and each compacted
 * message's own, which also checks that it is still its key's head (given back after the commit). A message whose
 * key is busy is deferred and one that lost its head superseded, both without running: a transaction never waits
 * for a key.
 */
final class RangeKeyHold {
    private final KeyLeases keys;
    private final Map<Long, DeliveryOutcome> unrun = new HashMap<>();
    private final Map<Delivery, String> ownLeases = new HashMap<>();

    private RangeKeyHold(KeyLeases keys) {
        this.keys = keys;
    }

    /** Takes the keys of {@code range} for {@code duration}; a failure to take them defers their messages. */
    static RangeKeyHold take(KeyLeases keys, ClaimedRange range, LeaseBudget budget, Duration duration) {
        RangeKeyHold hold = new RangeKeyHold(keys);
        hold.takeChainKeys(range, duration);
        for (Delivery delivery : range.deliveries()) {
            if (KeyLeases.needed(delivery) && delivery.compactionRank() != null) {
                hold.takeOwnLease(delivery, budget.needed(delivery));
            }
        }
        return hold;
    }

    /** What a message gets without running, because of its key; null when it may run. */
    DeliveryOutcome unrun(Delivery delivery) {
        return unrun.get(delivery.messageId());
    }

    /** Gives back the compacted messages' own leases once the range's outcome is committed or lost. */
    void releaseOwnLeases() {
        ownLeases.forEach((delivery, token) -> {
            try {
                keys.release(delivery, token);
            } catch (SqlStreamsException failure) {
                // the lease expires on its own; a later claimant takes it over
            }
        });
        ownLeases.clear();
    }

    private void takeChainKeys(ClaimedRange range, Duration duration) {
        List<DispatchUnit> chains = DispatchUnit.of(range).stream().filter(DispatchUnit::chain).toList();
        if (chains.isEmpty()) {
            return;
        }
        KeyLeases.Grant grant;
        try {
            grant = keys.takeAll(chains.stream().map(DispatchUnit::keyRequest).toList(), List.of(), range.token(),
                    duration);
        } catch (SqlStreamsException failure) {
            chains.forEach(chain -> deferAll(chain, "its key lease could not be taken: " + failure.getMessage()));
            return;
        }
        for (int i = 0; i < chains.size(); i++) {
            switch (grant.states().get(i)) {
                case ACQUIRED -> range.keyLeasesChanged(1);
                case AFTER_EXCEPTION -> deferAll(chains.get(i), "an earlier message of the key waits on the exception path");
                case BUSY -> deferAll(chains.get(i), "another delivery held the message key");
            }
        }
    }

    private void takeOwnLease(Delivery delivery, Duration duration) {
        KeyLeases.Lease lease;
        try {
            lease = keys.take(delivery, duration);
        } catch (SqlStreamsException failure) {
            unrun.put(delivery.messageId(), new DeliveryOutcome.Deferred("its key lease could not be taken: "
                    + failure.getMessage()));
            return;
        }
        switch (lease.verdict()) {
            case ACQUIRED -> ownLeases.put(delivery, lease.token());
            case BUSY -> unrun.put(delivery.messageId(), new DeliveryOutcome.Deferred(
                    "another delivery held the message key"));
            case SUPERSEDED -> unrun.put(delivery.messageId(), new DeliveryOutcome.Superseded());
        }
    }

    private void deferAll(DispatchUnit chain, String reason) {
        chain.deliveries().forEach(delivery -> unrun.put(delivery.messageId(), new DeliveryOutcome.Deferred(reason)));
    }
}
