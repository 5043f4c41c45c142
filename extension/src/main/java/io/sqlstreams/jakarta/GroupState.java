package io.sqlstreams.jakarta;

import java.time.Instant;

/**
 * What health reports of one group on this instance.
 *
 * @param restarts how often its session was restarted after failing
 * @param detail   the last failure, or why the group does not run
 */
public record GroupState(Status status, int restarts, String detail, Instant since) {

    public enum Status {
        NOT_STARTED, RUNNING, RESTARTING, FAILED, STOPPED, DISABLED,
        /** running and live, but claiming nothing: an operator paused the group */
        PAUSED,
        /** running, but its heartbeat is older than InstanceTTL */
        STALLED;

        /** What liveness reports DOWN: a session failed for good, or stuck without a heartbeat. */
        boolean dead() {
            return this == FAILED || this == STALLED;
        }
    }

    String describe() {
        return status.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                + (restarts > 0 ? " (restarts " + restarts + ")" : "") + (detail == null ? "" : ": " + detail);
    }
}
