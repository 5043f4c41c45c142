package io.sqlstreams.bench;

import java.util.Locale;

/** What one repetition of a measurement yields, with the unit and precision it is shown in. */
enum Metric {
    THROUGHPUT("throughput /s", "%,.0f"),
    CONSUMED("consumed /s", "%,.0f"),
    /** The rate an open-loop producer was asked to send at. */
    OFFERED("offered /s", "%,.0f"),
    P50("p50 ms", "%,.2f"),
    P99("p99 ms", "%,.2f"),
    P999("p99.9 ms", "%,.2f"),
    /** How much a consumer group's backlog (head − committed) grew over a step, in messages. */
    BACKLOG_GROWTH("backlog growth", "%,.0f"),
    /** 1 when a step met its pass criteria, else 0; its median over the repetitions. */
    PASSED("passed", "%.0f"),
    /** Successes of a lower id after a higher id of the same key (the {@code keys} scenario, ordered). */
    ORDER_VIOLATIONS("order violations", "%,.0f"),
    /** Handler entries while another message of the same key was running (the {@code keys} scenario). */
    OVERLAPS("overlaps", "%,.0f"),
    /** Message ids handled successfully more than once (the {@code keys} scenario). */
    DOUBLE_RUNS("double runs", "%,.0f");

    private final String heading;
    private final String pattern;

    Metric(String heading, String pattern) {
        this.heading = heading;
        this.pattern = pattern;
    }

    String heading() {
        return heading;
    }

    String format(double value) {
        return String.format(Locale.ROOT, pattern, value);
    }

    /** {@code median (min – max)}. */
    String format(Summary summary) {
        return format(summary.median()) + " (" + format(summary.min()) + " – " + format(summary.max()) + ")";
    }
}
