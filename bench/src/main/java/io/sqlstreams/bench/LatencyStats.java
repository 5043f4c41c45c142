package io.sqlstreams.bench;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/** p50, p99 and p99.9 (nearest rank) of signed microsecond latencies, in milliseconds. */
final class LatencyStats {

    private LatencyStats() {
    }

    static Map<Metric, Double> of(long[] micros) {
        if (micros.length == 0) {
            throw new IllegalStateException("no latency was recorded");
        }
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        Map<Metric, Double> values = new EnumMap<>(Metric.class);
        values.put(Metric.P50, rank(sorted, 0.50) / 1000.0);
        values.put(Metric.P99, rank(sorted, 0.99) / 1000.0);
        values.put(Metric.P999, rank(sorted, 0.999) / 1000.0);
        return values;
    }

    static long rank(long[] sorted, double quantile) {
        return sorted[Math.max(0, (int) Math.ceil(quantile * sorted.length) - 1)];
    }
}
