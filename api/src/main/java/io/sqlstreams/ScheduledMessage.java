package io.sqlstreams;

import java.time.Instant;
import java.util.Map;

/**
 * One message a schedule produced, and what became of it in each consumer group of its stream.
 *
 * @param id           the message's id in the stream
 * @param scheduledAt  the due time it was produced for (the time of the run for {@link SchedulerHandle#run})
 * @param createdAt    when it was written
 * @param outcomes     its outcome by consumer group name; empty when the stream has no groups
 * @param nextId       the schedule's next message, which supersedes this one where it had not run yet; null for
 *                     the newest
 * @param nextAt       when that next message was written; null for the newest
 */
public record ScheduledMessage(long id, Instant scheduledAt, Instant createdAt, Map<String, Outcome> outcomes,
                               Long nextId, Instant nextAt) {

    public ScheduledMessage {
        outcomes = Map.copyOf(outcomes);
    }

    /** What became of a scheduled message in one consumer group. */
    public enum Outcome implements WireNamed {
        /** Not handled yet, or failed and waiting for its retry. */
        PENDING("pending"),
        /** Waiting behind a run of the schedule still going (exclusive). */
        DEFERRED("deferred"),
        /** Its handler succeeded (or the group moved past it, when successes are not logged). */
        SUCCEEDED("succeeded"),
        /** Dead-lettered: it failed for good. */
        FAILED("failed"),
        /** A newer message of the schedule replaced it before it ran. */
        SUPERSEDED("superseded");

        private final String wireName;

        Outcome(String wireName) {
            this.wireName = wireName;
        }

        @Override
        public String wireName() {
            return wireName;
        }
    }
}
