package io.sqlstreams.bench;

import java.time.Duration;
import java.util.Locale;

/**
 * The warm-up BENCHMARKS.md asks of every scenario before its first measured figure: one run of that measurement
 * (or a short form of it) whose figures and ledger are dropped, so the JIT, the pools and the server's caches are
 * warm when measuring starts. The report's notes say what ran and for how long.
 */
final class Warmup {
    /** How long a warm-up cut by time runs. */
    static final Duration LIMIT = Duration.ofSeconds(10);
    static final Duration SMOKE_LIMIT = Duration.ofSeconds(1);

    private Warmup() {
    }

    static Duration limit(BenchContext context) {
        return context.smoke() ? SMOKE_LIMIT : LIMIT;
    }

    /** Runs {@code measurement} once, unmeasured; returns the report's note: what ran and for how long. */
    static String run(BenchContext context, String what, Repetitions.Measurement measurement) throws Exception {
        context.progress().note("warm-up (not measured): " + what);
        long start = System.nanoTime();
        measurement.run();
        String note = String.format(Locale.ROOT, "Warm-up: %s, run once unmeasured before the first measured figure,"
                + " took %.1f s.", what, (System.nanoTime() - start) / 1e9);
        context.progress().note("  → " + note);
        return note;
    }
}
