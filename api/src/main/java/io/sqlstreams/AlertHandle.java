package io.sqlstreams;

import java.util.List;
import java.util.Optional;

/** One alert of one owner. No I/O until a verb is called. */
public interface AlertHandle {

    /** The alert's name, such as {@code worker_liveness}. */
    String name();

    /**
     * The newest recorded report of this alert, empty when none is retained.
     *
     * @throws SqlStreamsException the owner's not-found error (SQL0005 for a stream) when the owner is gone
     */
    Optional<Alert> latest();

    /** The retained reports of this alert, newest first, at most {@code limit}. */
    List<Alert> history(int limit);

    /**
     * Evaluates the alert's current evidence under the current declared policy, without recording anything.
     *
     * @throws SqlStreamsException SQL0108 for a name that is no built-in alert of this owner's kind
     */
    AlertEvaluationSnapshot snapshot();
}
