package io.sqlstreams.bench;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/** Times passes of one piece of work run one after another on the calling thread. */
final class PassTimes {
    private static final double NANOS_PER_MILLI = 1e6;

    /** One pass of the work timed. */
    @FunctionalInterface
    interface Pass {
        void run() throws Exception;
    }

    private PassTimes() {
    }

    /**
     * Runs {@code pass} {@code count} times: passes per second over their summed time ({@link Metric#THROUGHPUT})
     * and the milliseconds of one pass, p50 ({@link Metric#P50}, nearest rank), fastest and slowest.
     */
    static Map<Metric, Double> measure(int count, Pass pass) throws Exception {
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            pass.run();
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        Map<Metric, Double> values = new EnumMap<>(Metric.class);
        values.put(Metric.THROUGHPUT, count / (Arrays.stream(nanos).sum() / 1e9));
        values.put(Metric.P50, LatencyStats.rank(nanos, 0.50) / NANOS_PER_MILLI);
        values.put(Metric.MIN_MS, nanos[0] / NANOS_PER_MILLI);
        values.put(Metric.MAX_MS, nanos[count - 1] / NANOS_PER_MILLI);
        return values;
    }
}
