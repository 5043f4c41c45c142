package io.sqlstreams.bench;

import java.util.List;
import java.util.Optional;

/**
 * One measurement over all its repetitions.
 *
 * @param label   what was measured, as the report names it
 * @param samples one per repetition, in the order they ran
 */
record Figure(String label, List<Sample> samples) {

    Figure {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException(label + " has no samples");
        }
        samples = List.copyOf(samples);
    }

    /** Median, min and max of {@code metric} over the repetitions, or empty when this measurement lacks it. */
    Optional<Summary> summary(Metric metric) {
        if (!samples.get(0).values().containsKey(metric)) {
            return Optional.empty();
        }
        return Optional.of(Summary.of(samples.stream().map(s -> s.values().get(metric)).toList()));
    }

    Summary throughput() {
        return summary(Metric.THROUGHPUT).orElseThrow();
    }

    boolean ledgersPassed() {
        return samples.stream().allMatch(s -> s.ledger().passed());
    }
}
