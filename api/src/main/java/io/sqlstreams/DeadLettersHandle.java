package io.sqlstreams;

import java.util.List;

/**
 * The dead letters of one consumer group: messages whose handler failed for good in that group. Reading never
 * changes anything; {@link #redrive} and {@link #discard} work in bounded batches (each its own transaction, each
 * counted into the action's audit row as it commits), touch only rows that are dead when their batch runs (never
 * a message a session holds), and take only dead letters that were dead when the action began, so a second call
 * with the same filter changes nothing that the first one changed. Every verb resolves the names when it runs:
 * SQL0005 for an unknown stream, SQL0014 for an unknown group, SQL0152 for a malformed filter or page.
 */
public interface DeadLettersHandle {

    /** The dead letters the filter selects, newest message first. */
    DeadLetterPage list(DeadLetterFilter filter, PageRequest page);

    /** How many dead letters the filter selects: what a redrive or discard with it would change now. */
    long count(DeadLetterFilter filter);

    /** The selected dead letters grouped by last error, largest group first, at most {@code limit} groups. */
    List<DeadLetterErrors> errors(DeadLetterFilter filter, int limit);

    /**
     * Makes the selected dead letters ready to run again at once with a fresh retry budget: each runs again as if
     * it were delivered for the first time on the exception path (its run count and delays start over; the
     * delivery log keeps its history and a {@code redriven} entry). Recorded in the group's audit trail and logged
     * as SQL0148.
     *
     * @param actor who asks for it, recorded as given; null records this client's identity
     */
    OperatorAction redrive(DeadLetterFilter filter, String actor);

    /**
     * Resolves the selected dead letters without running them: their rows stay, as {@code discarded}, until
     * retention removes their messages. Recorded in the audit trail and logged as SQL0149.
     *
     * @param actor who asks for it, recorded as given; null records this client's identity
     */
    OperatorAction discard(DeadLetterFilter filter, String actor);
}
