package io.sqlstreams.engine.telemetry;

import java.util.Locale;

/** How a handler run ended, as its span's {@code sqlstreams.outcome} event names it. */
public enum RunEnd {
    /** The handler returned. */
    SUCCEEDED,
    /** The handler failed and the delivery will run again after its backoff. */
    RETRY,
    /** The handler asked to run the delivery again later ({@code Outcome.delay}). */
    DELAYED,
    /** The delivery is dead: a terminal failure, or its retry budget is spent. */
    DEAD_LETTERED,
    /** The delivery was handed back without counting the run (the host is stopping, or its key is busy). */
    HANDED_BACK,
    /** A newer version of the delivery's compaction key replaced it. */
    SUPERSEDED;

    private final String wireName = name().toLowerCase(Locale.ROOT);

    /** The name the span event carries: {@code dead_lettered}. */
    public String wireName() {
        return wireName;
    }

    /** Whether the run counts as failed (its span's status is an error). */
    public boolean failed() {
        return this == RETRY || this == DEAD_LETTERED;
    }
}
