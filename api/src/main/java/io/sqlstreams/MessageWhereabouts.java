package io.sqlstreams;

import java.time.Instant;
import java.util.Map;

/**
 * Where one retained message stands in each consumer group of its stream.
 *
 * @param id         its id in the stream
 * @param messageKey its message key, or null
 * @param routingKey its routing key, or null
 * @param createdAt  when it was written
 * @param groups     its placement by consumer group name; empty when the stream has no groups
 */
public record MessageWhereabouts(long id, String messageKey, String routingKey, Instant createdAt,
                                 Map<String, Placement> groups) {

    public MessageWhereabouts {
        groups = Map.copyOf(groups);
    }

    /**
     * The message in one group.
     *
     * @param state     where it stands
     * @param runs      how many times its handler ran there, as far as its exception row counts (0 without one)
     * @param lastError its last error there, or null
     * @param runAfter  when it may run next, for a message waiting in the exception queue; else null
     */
    public record Placement(State state, int runs, String lastError, Instant runAfter) {
    }

    /** Where a message stands in one group. */
    public enum State implements WireNamed {
        /** Not claimed yet (or redriven and not yet run again). */
        PENDING("pending"),
        /** Claimed by a session, its handler running or about to. */
        IN_FLIGHT("in_flight"),
        /** Failed or delayed, and due to run again. */
        RETRYING("retrying"),
        /** Deferred behind a busy key or an earlier message of its ordered key. */
        WAITING("waiting"),
        /** Failed for good. */
        DEAD("dead"),
        /** Dead and then discarded by an operator. */
        DISCARDED("discarded"),
        /** A newer message of its compaction key replaced it before it ran. */
        SUPERSEDED("superseded"),
        /** Handled (or passed over: filtered out by the group's bindings). */
        DONE("done");

        private final String wireName;

        State(String wireName) {
            this.wireName = wireName;
        }

        @Override
        public String wireName() {
            return wireName;
        }
    }
}
