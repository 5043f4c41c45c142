package io.sqlstreams.engine.consume;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One leased range (low, high] of the log and the outcomes of its deliveries so far. Filtered-out ids of the
 * range have no delivery and count as resolved.
 */
final class ClaimedRange {
    private final String token;
    private final long low;
    private final long high;
    private final Instant leaseDeadline;
    private final List<Delivery> deliveries;
    private final Map<Long, DeliveryOutcome> outcomes;
    private int started;
    private boolean stale;
    private int keyLeasesHeld;

    ClaimedRange(String token, long low, long high, Instant leaseDeadline, List<Delivery> deliveries) {
        this.token = token;
        this.low = low;
        this.high = high;
        this.leaseDeadline = leaseDeadline;
        this.deliveries = List.copyOf(deliveries);
        this.outcomes = new HashMap<>(deliveries.size() * 4 / 3 + 1);
    }

    /** One delivery of the range and its outcome. */
    record Resolved(Delivery delivery, DeliveryOutcome outcome) {
    }

    String token() {
        return token;
    }

    long low() {
        return low;
    }

    long high() {
        return high;
    }

    Instant leaseDeadline() {
        return leaseDeadline;
    }

    List<Delivery> deliveries() {
        return deliveries;
    }

    /** Marks a delivery started; false when the range went stale and nothing more of it may start. */
    synchronized boolean start() {
        if (stale) {
            return false;
        }
        started++;
        return true;
    }

    /** Too little lease time is left to start its next message: the range waits for a reclaim. */
    synchronized void markStale() {
        stale = true;
    }

    synchronized boolean stale() {
        return stale;
    }

    synchronized boolean neverStarted() {
        return started == 0;
    }

    /** Counts key leases its chains took (positive) or gave back early (negative) under its token. */
    synchronized void keyLeasesChanged(int by) {
        keyLeasesHeld += by;
    }

    /** The key leases its commit should find and give back. */
    synchronized int keyLeasesHeld() {
        return keyLeasesHeld;
    }

    /** Records an outcome; true when it was the last one the range was waiting for. */
    synchronized boolean record(Delivery delivery, DeliveryOutcome outcome) {
        outcomes.put(delivery.messageId(), outcome);
        return !stale && outcomes.size() == deliveries.size();
    }

    /** The outcome recorded for {@code delivery}, or null. */
    synchronized DeliveryOutcome outcomeOf(Delivery delivery) {
        return outcomes.get(delivery.messageId());
    }

    synchronized boolean complete() {
        return outcomes.size() == deliveries.size();
    }

    /** The outcomes of the resolved prefix, in id order. */
    synchronized List<Resolved> resolvedPrefix() {
        List<Resolved> prefix = new ArrayList<>(outcomes.size());
        for (Delivery delivery : deliveries) {
            DeliveryOutcome outcome = outcomes.get(delivery.messageId());
            if (outcome == null) {
                break;
            }
            prefix.add(new Resolved(delivery, outcome));
        }
        return prefix;
    }

    /** The id up to which every id of the range is resolved; {@link #high()} when all are. */
    synchronized long resolvedThrough() {
        long through = low;
        for (Delivery delivery : deliveries) {
            if (!outcomes.containsKey(delivery.messageId())) {
                return through;
            }
            through = delivery.messageId();
        }
        return high;
    }

    String describe() {
        return "range (" + low + ", " + high + "]";
    }
}
