package io.sqlstreams.bench;

import java.util.List;
import java.util.Map;

/** Call-latency percentiles from per-caller nanosecond recordings, merged and sorted (nearest-rank method). */
final class Percentiles {
    private static final double NANOS_PER_MILLI = 1e6;

    private Percentiles() {
    }

    /** {@link Metric#P50} and {@link Metric#P99} in milliseconds over every recorded call. */
    static Map<Metric, Double> of(List<LongList> nanosPerCaller) {
        long[] sorted = LongList.sortedUnion(nanosPerCaller);
        if (sorted.length == 0) {
            throw new IllegalStateException("no call was recorded");
        }
        return Map.of(Metric.P50, rank(sorted, 0.50) / NANOS_PER_MILLI,
                Metric.P99, rank(sorted, 0.99) / NANOS_PER_MILLI);
    }

    private static long rank(long[] sorted, double quantile) {
        return sorted[Math.max(0, (int) Math.ceil(quantile * sorted.length) - 1)];
    }
}
