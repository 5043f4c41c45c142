package io.sqlstreams;

/** What an evaluation of an alert's evidence concluded (see {@link AlertEvaluationSnapshot}). */
public enum AlertState {
    /** The newest evidence shows the condition does not hold. */
    HEALTHY,
    /** The condition holds, but not yet for the pending duration. */
    PENDING,
    /** The condition has held for at least the pending duration (or pending is disabled). */
    ACTIVE,
    /** There is no usable evidence recent enough to judge: nothing is recorded, nothing is resolved. */
    INSUFFICIENT
}
