package io.sqlstreams.bench;

import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One repetition of one measurement: its figures and its ledger.
 *
 * @param values the figures this measurement yields (throughput, except for a pure latency measurement)
 * @param ledger what was acknowledged against what the database holds
 */
record Sample(Map<Metric, Double> values, Ledger ledger) {

    Sample {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a sample needs at least one figure");
        }
        values = new EnumMap<>(values);
    }

    /** One line for the progress output, e.g. {@code throughput /s 85,120 · p99 ms 3.10 · ledger ok}. */
    String describe() {
        return values.entrySet().stream().map(e -> e.getKey().heading() + " " + e.getKey().format(e.getValue()))
                .collect(Collectors.joining(" · ")) + " · ledger " + (ledger.passed() ? "ok" : "FAILED " + ledger);
    }
}
