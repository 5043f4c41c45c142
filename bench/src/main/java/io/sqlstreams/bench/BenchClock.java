package io.sqlstreams.bench;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Microseconds since the epoch, read from {@link System#nanoTime()} against one wall-clock reading taken when the
 * class loads: monotonic and fine-grained, so a send time stamped by a producer thread and a handler entry read by
 * a handler thread of the same process subtract exactly.
 */
final class BenchClock {
    private static final long ORIGIN_NANOS = System.nanoTime();
    private static final long ORIGIN_MICROS = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());

    private BenchClock() {
    }

    static long nowMicros() {
        return micros(System.nanoTime());
    }

    /** The epoch microseconds of a {@link System#nanoTime()} reading. */
    static long micros(long nanoTime) {
        return ORIGIN_MICROS + (nanoTime - ORIGIN_NANOS) / 1000;
    }
}
