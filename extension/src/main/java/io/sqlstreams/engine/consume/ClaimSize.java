package io.sqlstreams.engine.consume;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import io.sqlstreams.ConsumeOptions;

/**
 * How many messages the next claim of a session asks for. With an explicit batchLimit, or for a transactional
 * handler, always batchLimit. A plain handler's session left at the default batchLimit grows its ranges while a
 * backlog lasts: after a claim that came back full, the next one asks for what the session handled in about one
 * claim poll period (the range before this one, over the time from its claim to this one's: a claim waits for the
 * queue's room, so that is about the time the session took to take it in), at most twice the last range and
 * {@link #GROWTH_LIMIT}; after a claim that did not come back full, batchLimit again. The local queue grows with
 * the ranges, to two of them.
 */
final class ClaimSize {
    static final int GROWTH_LIMIT = 1_000;

    private final int base;
    private final int limit;
    private final Duration target;
    private final Clock clock;
    private int next;
    private Instant lastClaim;
    private int lastGot;

    private ClaimSize(int base, int limit, Duration target, Clock clock) {
        this.base = base;
        this.limit = limit;
        this.target = target;
        this.clock = clock;
        this.next = base;
    }

    static ClaimSize of(ConsumeOptions options, boolean transactional, Clock clock) {
        int base = options.resolvedBatchLimit();
        boolean grows = options.batchLimit() == null && !transactional;
        return new ClaimSize(base, grows ? Math.max(base, GROWTH_LIMIT) : base, options.resolvedClaimPollRate(),
                clock);
    }

    int next() {
        return next;
    }

    /**
     * The local queue's room for the next claim: {@code queueSize} at the batch limit; while ranges grow, two of
     * them, so the next range is claimed while the last one runs.
     */
    int queueRoom(int queueSize) {
        return next == base ? queueSize : Math.max(queueSize, 2 * next);
    }

    /** A claim that asked for {@code asked} message ids brought a range of {@code got} (none: 0). */
    void claimed(int asked, int got) {
        Instant now = clock.instant();
        Instant previous = lastClaim;
        int handledSince = lastGot;
        lastClaim = now;
        lastGot = got;
        if (got < asked || previous == null) {
            next = base;
            return;
        }
        long elapsedNanos = Math.max(1, Duration.between(previous, now).toNanos());
        double perPeriod = (double) handledSince * target.toNanos() / elapsedNanos;
        next = (int) Math.max(base, Math.min(Math.min(perPeriod, 2.0 * got), limit));
    }
}
