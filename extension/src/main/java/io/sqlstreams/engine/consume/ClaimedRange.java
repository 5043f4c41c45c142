package io.sqlstreams.engine.consume;

import java.time.Duration;
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
    private final Duration leaseDuration;
    private Instant leaseDeadline;
    private final List<Delivery> deliveries;
    private final Map<Long, DeliveryOutcome> outcomes;
    private int started;
    private boolean stale;
    private int keyLeasesHeld;

    /** @param leasedAt when the lease was taken, read before the statement that took it */
    ClaimedRange(String token, long low, long high, Instant leasedAt, Duration leaseDuration, List<Delivery> deliveries) {
        this.token = token;
        this.low = low;
        this.high = high;
        this.leaseDuration = leaseDuration;
        this.leaseDeadline = leasedAt.plus(leaseDuration);
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

    synchronized Instant leaseDeadline() {
        return leaseDeadline;
    }

    /** How long each lease of the range lasts: the first and every renewal. */
    Duration leaseDuration() {
        return leaseDuration;
    }

    /** The lease was renewed by a statement that started at {@code renewedAt}. */
    synchronized void leaseRenewed(Instant renewedAt) {
        leaseDeadline = renewedAt.plus(leaseDuration);
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

    /** Nothing more of it may start: its lease is lost, or its commit failed and it waits for a reclaim. */
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
