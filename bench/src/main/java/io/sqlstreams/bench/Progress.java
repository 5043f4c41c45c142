package io.sqlstreams.bench;

import java.io.PrintStream;
import java.util.Locale;

/** Progress lines on stderr, each stamped with the seconds since the run started. */
final class Progress {
    private final PrintStream out;
    private final long startNanos = System.nanoTime();

    Progress(PrintStream out) {
        this.out = out;
    }

    void note(String text) {
        out.printf(Locale.ROOT, "[bench %7.1fs] %s%n", (System.nanoTime() - startNanos) / 1e9, text);
        out.flush();
    }
}
