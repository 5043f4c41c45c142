package io.sqlstreams.bench;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds what the SDK exported during each repetition against what it must have, as part of the repetition's
 * ledger: spans that do not match, or a traced repetition without metric points, count as violations and fail it.
 */
final class TelemetryCheck {
    private final BenchOpenTelemetry telemetry;
    private final List<String> notes;

    /** @param notes where each repetition's exported counts are noted for the report */
    TelemetryCheck(BenchOpenTelemetry telemetry, List<String> notes) {
        this.telemetry = telemetry;
        this.notes = notes;
    }

    /**
     * {@code measurement}, checked.
     *
     * @param traced   whether the measured client traces (then it must also have exported metric points)
     * @param expected the spans a repetition must have exported
     */
    Repetitions.Measurement checked(String label, boolean traced, ExpectedSpans.Rule expected,
                                    Repetitions.Measurement measurement) {
        AtomicInteger repetitions = new AtomicInteger();
        return () -> {
            ExportedTelemetry before = telemetry.exported();
            Sample sample = measurement.run();
            ExportedTelemetry exported = telemetry.exported().minus(before);
            ExpectedSpans wanted = expected.of(sample, traced);
            boolean metricsMissing = traced && exported.metricPoints() == 0;
            long violations = wanted.mismatch(exported) + (metricsMissing ? 1 : 0);
            notes.add(label.replace(" (msg/s)", "") + ", repetition " + repetitions.incrementAndGet() + ": exported "
                    + exported.describe() + (wanted.mismatch(exported) == 0 ? "" : " — **expected " + wanted.describe()
                    + "**") + (metricsMissing ? " — **no metric points**" : ""));
            return new Sample(sample.values(), sample.ledger().withViolations(violations));
        };
    }
}
