package io.sqlstreams.engine.query;

import java.time.Duration;

/** Durations travel to PostgreSQL as whole microseconds, multiplied by {@code interval '1 microsecond'}. */
public final class Micros {
    private Micros() {
    }

    public static long of(Duration duration) {
        return duration.toNanos() / 1000;
    }
}
