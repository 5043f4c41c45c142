package io.sqlstreams.bench;

/**
 * A scenario figure's throughput as a share of a baseline measured in the same run.
 *
 * @param subject  the scenario's figure
 * @param baseline the raw-SQL figure it is held against
 * @param note     why this baseline, when it needs saying; empty otherwise
 */
record Comparison(Figure subject, Figure baseline, String note) {

    /** The subject's median, min and max, each as a percentage of the baseline's median. */
    Summary percentages() {
        Summary ours = subject.throughput();
        double base = baseline.throughput().median();
        return new Summary(100 * ours.median() / base, 100 * ours.min() / base, 100 * ours.max() / base);
    }
}
