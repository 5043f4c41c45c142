package io.sqlstreams.bench;

import java.util.List;

/**
 * Measures one thing with the library's telemetry off and on, alternating which runs first, each repetition's
 * exported telemetry checked; both figures are held against the same baseline and their pair is costed.
 */
final class OffAndOn {
    private final BenchContext context;
    private final TelemetryCheck check;
    private final TelemetryCost cost;
    private final List<Figure> figures;
    private final List<Comparison> comparisons;

    /** @param figures, comparisons where the measured figures and their comparisons are added */
    OffAndOn(BenchContext context, TelemetryCheck check, TelemetryCost cost, List<Figure> figures,
             List<Comparison> comparisons) {
        this.context = context;
        this.check = check;
        this.cost = cost;
        this.figures = figures;
        this.comparisons = comparisons;
    }

    /** @param measurement its label, {@code … (msg/s)}, without off or on */
    void measure(String measurement, Repetitions.Measurement off, Repetitions.Measurement on,
                 ExpectedSpans.Rule expected, Figure baseline) throws Exception {
        String offLabel = TelemetryScenario.label(measurement, false);
        String onLabel = TelemetryScenario.label(measurement, true);
        List<Figure> measured = context.repetitions().measurePaired(
                offLabel, check.checked(offLabel, false, expected, off),
                onLabel, check.checked(onLabel, true, expected, on));
        for (Figure figure : measured) {
            figures.add(figure);
            comparisons.add(new Comparison(figure, baseline, ""));
        }
        cost.add(measurement.replace(" (msg/s)", ""), measured.get(0), measured.get(1));
    }
}
