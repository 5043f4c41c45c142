package io.sqlstreams.bench;

import java.util.Locale;

/**
 * What the benchmark's OpenTelemetry SDK has exported, by the spans' kind.
 *
 * @param requestSpans the application's own spans around each produce call (SERVER)
 * @param sendSpans    the library's spans of produce calls (PRODUCER)
 * @param processSpans the library's spans of handler runs (CONSUMER)
 * @param metricPoints the library's metric data points (its messaging counters and histogram)
 */
record ExportedTelemetry(long requestSpans, long sendSpans, long processSpans, long metricPoints) {

    ExportedTelemetry minus(ExportedTelemetry before) {
        return new ExportedTelemetry(requestSpans - before.requestSpans, sendSpans - before.sendSpans,
                processSpans - before.processSpans, metricPoints - before.metricPoints);
    }

    String describe() {
        return String.format(Locale.ROOT, "request spans %,d, send spans %,d, process spans %,d, metric points %,d",
                requestSpans, sendSpans, processSpans, metricPoints);
    }
}
