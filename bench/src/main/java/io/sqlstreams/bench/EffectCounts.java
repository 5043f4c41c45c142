package io.sqlstreams.bench;

import java.util.List;

/**
 * A transactional handler's effects against the messages produced ({@link HandlerMode#TRANSACTIONAL}): every
 * produced message but a poison one must have exactly one row per group in {@code chaos_effects}, a poison one
 * none (its failures' savepoints take the row back), and no run may have met a row already there.
 *
 * @param rows       rows in the effects table
 * @param missing    produced messages, poison ones excepted, without an effects row of the group
 * @param extra      rows beyond one per such message: a poison message's, a second one, one of a message not produced
 * @param violations runs whose effect the table's primary key refused, as the consumer processes reported them
 * @param evidence   example rows of every missing and extra effect
 */
record EffectCounts(long rows, long missing, long extra, long violations, List<String> evidence) {

    /** The three promises, each of which must count zero. */
    List<Invariant> invariants() {
        return List.of(
                Invariant.zero("missing effects", missing, "produced messages (poison ones excepted) without their"
                        + " effects row: a committed success that left no effect, or a message never committed"),
                Invariant.zero("extra effects", extra, "effects rows beyond one per produced message and group: a"
                        + " poison message's, whose failed runs' savepoints should have taken it back, or a second"
                        + " one"),
                Invariant.zero("unique violations", violations, "handler runs whose effect insert met the message's"
                        + " row already committed: a delivery run again after its transaction committed"));
    }
}
