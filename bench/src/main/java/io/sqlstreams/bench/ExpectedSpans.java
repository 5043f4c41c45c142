package io.sqlstreams.bench;

import java.util.Locale;

/**
 * The spans one repetition must have exported.
 *
 * @param requests the application's spans around produce calls
 * @param sends    the library's send spans: one per produce call when it traces, else none
 * @param processes the library's process spans: one per handler run when it traces, else none
 */
record ExpectedSpans(long requests, long sends, long processes) {

    /** The spans a repetition must have exported, given its sample and whether the measured client traces. */
    @FunctionalInterface
    interface Rule {
        ExpectedSpans of(Sample sample, boolean traced);
    }

    /** How far {@code exported} is off: the sum of the differences, 0 when every count matches. */
    long mismatch(ExportedTelemetry exported) {
        return Math.abs(exported.requestSpans() - requests) + Math.abs(exported.sendSpans() - sends)
                + Math.abs(exported.processSpans() - processes);
    }

    String describe() {
        return String.format(Locale.ROOT, "request spans %,d, send spans %,d, process spans %,d", requests,
                sends, processes);
    }
}
