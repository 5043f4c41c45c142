package io.sqlstreams.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The cost of the library's telemetry per measurement, {@code 1 − on/off} of each repetition of "on" against the
 * "off" repetition it was paired with, held against the aim.
 */
final class TelemetryCost {
    static final double AIM_PERCENT = 10;

    private final List<List<String>> rows = new ArrayList<>();

    void add(String measurement, Figure off, Figure on) {
        Summary cost = Summary.of(IntStream.range(0, off.samples().size())
                .mapToObj(k -> 100 * (1 - throughput(on.samples().get(k)) / throughput(off.samples().get(k))))
                .toList());
        rows.add(List.of(measurement, Metric.THROUGHPUT.format(off.throughput()),
                Metric.THROUGHPUT.format(on.throughput()), percent(cost.median()) + " (" + percent(cost.min()) + " – "
                        + percent(cost.max()) + ")", cost.median() < AIM_PERCENT ? "yes" : "**no**"));
    }

    SeriesTable table() {
        return new SeriesTable("Cost of the library's telemetry: 1 − on/off per repetition pair, median (min – max);"
                + " aim under " + percent(AIM_PERCENT), List.of("measurement", "off msg/s →", "on msg/s →",
                "cost →", "under aim"), rows);
    }

    private static double throughput(Sample sample) {
        return sample.values().get(Metric.THROUGHPUT);
    }

    private static String percent(double value) {
        return String.format(Locale.ROOT, "%.1f %%", value);
    }
}
