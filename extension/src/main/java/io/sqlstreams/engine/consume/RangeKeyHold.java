package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.sqlstreams.SqlStreamsException;

/**
 * What decides a message of a range run in one transaction before it runs, apart from its handler: the key chain
 * gate, which took every chain's key before the range was queued and deferred the chains it refused (their outcomes
 * are on the range), and each compacted message's own lease, taken here before the transaction begins, which also
 * checks that the message is still its key's head (given back after the commit). A compacted message whose key is
 * busy is deferred and one that lost its head superseded, both without running: a transaction never waits for a key.
 */
final class RangeKeyHold {
    private final KeyLeases keys;
    private final ClaimedRange range;
    private final Map<Long, DeliveryOutcome> unrun = new HashMap<>();
    private final Map<Delivery, String> ownLeases = new HashMap<>();

    private RangeKeyHold(KeyLeases keys, ClaimedRange range) {
        this.keys = keys;
        this.range = range;
    }

    /** Takes the compacted messages' own leases of {@code range}. */
    static RangeKeyHold take(KeyLeases keys, ClaimedRange range, LeaseBudget budget) {
        RangeKeyHold hold = new RangeKeyHold(keys, range);
        for (Delivery delivery : range.deliveries()) {
            if (KeyLeases.needed(delivery) && delivery.compactionRank() != null && range.outcomeOf(delivery) == null) {
                hold.takeOwnLease(delivery, budget.needed(delivery));
            }
        }
        return hold;
    }

    /** What a message gets without running, because of its key; null when it may run. */
    DeliveryOutcome unrun(Delivery delivery) {
        DeliveryOutcome refused = range.outcomeOf(delivery);
        return refused != null ? refused : unrun.get(delivery.messageId());
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
}
