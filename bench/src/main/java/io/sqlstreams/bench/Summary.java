package io.sqlstreams.bench;

import java.util.List;

/** The median, minimum and maximum of one figure over its repetitions. */
record Summary(double median, double min, double max) {

    static Summary of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values to summarise");
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Summary(median, sorted[0], sorted[sorted.length - 1]);
    }
}
