package io.sqlstreams;

import java.util.Map;

/**
 * A consumer group seen from both sides: the declaration as stored (sparse) and the values instances
 * actually run under after defaults, beside its cursor and delivery state.
 *
 * @param consumer         the group's row
 * @param declared         the stored declaration document (JSON), unset fields absent
 * @param declaredConfig   the same declaration as a {@link ConsumerConfig}
 * @param effectiveMessage the group's message defaults after library defaults
 * @param effectiveMax     the group's ceilings after defaults
 * @param head             the highest visible message id of the stream
 * @param claimed          the group's claimed cursor
 * @param committed        the group's committed cursor
 * @param openLeases       range leases currently held
 * @param exceptions       exception rows by status ({@code ready}, {@code inflight}, {@code deferred},
 *                         {@code dead}, {@code superseded}, {@code discarded}); absent statuses have no rows
 * @param pause            the pause in force, or null when the group is not paused
 */
public record ConsumerInspection(Consumer consumer, String declared, ConsumerConfig declaredConfig,
                                 MessageOptions effectiveMessage, MessageOptions effectiveMax, long head,
                                 long claimed, long committed, int openLeases, Map<String, Long> exceptions,
                                 OperatorAction pause) {

    public ConsumerInspection {
        exceptions = Map.copyOf(exceptions);
    }

    /** Ids beyond the committed cursor up to the head (ids, not messages: gaps and filtered rows count). */
    public long lag() {
        return Math.max(0, head - committed);
    }

    /** True while an operator has the group paused. */
    public boolean paused() {
        return pause != null;
    }

    /** Dead-lettered deliveries still retained. */
    public long dead() {
        return exceptions.getOrDefault("dead", 0L);
    }
}
