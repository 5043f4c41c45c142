package io.sqlstreams.engine.consume;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether one dispatched handler routine was abandoned and whether it has returned since, counted on the session's
 * abandoned-routine figures exactly once whichever of the two threads comes second: the timer that abandons it or
 * the handler thread that returns.
 */
final class RoutineWatch {
    private static final int RUNNING = 0;
    private static final int ABANDONED = 1;
    private static final int RETURNED = 2;

    private final SessionCounterSet counters;
    private final Clock clock;
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private volatile Instant abandonedAt;

    RoutineWatch(SessionCounterSet counters, Clock clock) {
        this.counters = counters;
        this.clock = clock;
    }

    /** On the timer, once the attempt was recorded as failed: the routine is outstanding until it returns. */
    void abandoned() {
        abandonedAt = clock.instant();
        counters.abandonedOutstanding.increment();
        if (!state.compareAndSet(RUNNING, ABANDONED)) {
            cleared();
        }
    }

    /** On the handler thread, whatever the handler did. */
    void returned() {
        if (state.getAndSet(RETURNED) == ABANDONED) {
            cleared();
        }
    }

    private void cleared() {
        counters.abandonedOutstanding.decrement();
        counters.abandonedCleared.increment();
        counters.abandonedClearMillis.add(Math.max(0, Duration.between(abandonedAt, clock.instant()).toMillis()));
    }
}
