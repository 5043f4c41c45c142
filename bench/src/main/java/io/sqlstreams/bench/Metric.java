package io.sqlstreams.bench;

import java.util.Locale;

/** What one repetition of a measurement yields, with the unit and precision it is shown in. */
enum Metric {
    THROUGHPUT("throughput /s", "%,.0f"),
    CONSUMED("consumed /s", "%,.0f"),
    /** The rate an open-loop producer was asked to send at. */
    OFFERED("offered /s", "%,.0f"),
    /** The most a handler of fixed time allows: messageConcurrency ÷ handler time (the {@code handler} scenario). */
    BOUND("bound /s", "%,.0f"),
    /** Throughput as a percentage of {@link #BOUND}. */
    OF_BOUND("% of bound", "%.1f%%"),
    /** The handler's own time from entry to exit, mean over its calls (the {@code handler} scenario). */
    HANDLER_MS("handler ms", "%,.2f"),
    P50("p50 ms", "%,.2f"),
    P99("p99 ms", "%,.2f"),
    P999("p99.9 ms", "%,.2f"),
    /** The fastest and the slowest of a repetition's timed passes (the {@code collector} scenario). */
    MIN_MS("min ms", "%,.2f"),
    MAX_MS("max ms", "%,.2f"),
    /** How long after its scheduled send a produce() returned (an open-loop producer's share of e2e), p50 and p99. */
    PRODUCER_LAG_P50("producer lag p50 ms", "%,.2f"),
    PRODUCER_LAG_P99("producer lag p99 ms", "%,.2f"),
    /** From produce() returning (the commit) to handler entry (the consumers' share of e2e), p50 and p99. */
    COMMIT_TO_HANDLER_P50("commit → handler p50 ms", "%,.2f"),
    COMMIT_TO_HANDLER_P99("commit → handler p99 ms", "%,.2f"),
    /** How much a consumer group's backlog (head − committed) grew over a step, in messages. */
    BACKLOG_GROWTH("backlog growth", "%,.0f"),
    /** 1 when a step met its pass criteria, else 0; its median over the repetitions. */
    PASSED("passed", "%.0f"),
    /** Successes of a lower id after a higher id of the same key (the {@code keys} scenario, ordered; chaos). */
    ORDER_VIOLATIONS("order violations", "%,.0f"),
    /** Handler entries while another message of the same key was running (the {@code keys} scenario; chaos). */
    OVERLAPS("overlaps", "%,.0f"),
    /** Message ids handled successfully more than once (the {@code keys} scenario). */
    DOUBLE_RUNS("double runs", "%,.0f"),
    /** The database's commits ({@code xact_commit}) over a measurement, per message handled (handler forms). */
    COMMITS_PER_MESSAGE("commits / msg", "%.3f"),
    /** Messages produced (chaos). */
    PRODUCED("produced", "%,.0f"),
    /** Messages that reached their configured outcome: a success, or dead-lettered for a poison one (chaos). */
    HANDLED("handled", "%,.0f"),
    /** Handler runs recorded, failures and re-runs included (chaos). */
    RUNS("handler runs", "%,.0f"),
    /** Consumer processes SIGKILLed (chaos). */
    KILLS("kills", "%,.0f"),
    /** Consumer backends terminated by {@code pg_terminate_backend} over every storm (chaos). */
    BACKENDS_TERMINATED("backends terminated", "%,.0f"),
    /** PostgreSQL restarts (chaos). */
    RESTARTS("restarts", "%,.0f"),
    /** Runs of a message after its first successful run started (chaos): expected after kills, not failed. */
    DUPLICATES("duplicates", "%,.0f"),
    /** Held producer transactions begun, whatever their end (chaos with fence holders). */
    HELD_TRANSACTIONS("held transactions", "%,.0f"),
    /** Messages produced by held producer transactions that committed (chaos with fence holders). */
    HELD_PRODUCED("held produced", "%,.0f"),
    /** Unrelated xid-holding transactions begun, in every place (chaos with fence holders). */
    UNRELATED_HOLDS("unrelated holds", "%,.0f"),
    /** Rows of the transactional handler's effects table (chaos with {@code --handler transactional}). */
    EFFECT_ROWS("effect rows", "%,.0f"),
    /** A group's head − committed when a phase ended, in messages (retention, mvcc). */
    LAG("lag at end", "%,.0f"),
    /** Expired range leases a session took over (the {@code handler} scenario: must stay 0). */
    LEASE_RECLAIMS("lease reclaims", "%,.0f"),
    /** Handler runs that threw (the {@code failure} scenario: first runs planned to fail, and every poison run). */
    FAILED_RUNS("failed runs", "%,.0f"),
    /** The group's exception rows with status dead (the {@code failure} scenario). */
    DEAD_LETTERS("dead letters", "%,.0f"),
    /** SQL statements one pass executes, median over a repetition's passes (the {@code collector} scenario). */
    STATEMENTS("statements / pass", "%,.0f"),
    /** Measurements one collector pass records on {@code __system.metrics}. */
    MEASUREMENTS("measurements / pass", "%,.0f"),
    /** CPU of every local {@code postgres} process over a measurement, per message or row written (produce). */
    POSTGRES_MICROS("PostgreSQL CPU µs/msg", "%,.1f"),
    /** CPU of the bench's own JVM over a measurement, per message or row written (produce). */
    CLIENT_MICROS("client JVM CPU µs/msg", "%,.1f");

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
