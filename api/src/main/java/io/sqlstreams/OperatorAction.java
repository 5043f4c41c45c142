package io.sqlstreams;

import java.time.Instant;

/**
 * One operator action on a consumer group, as its audit trail records it.
 *
 * @param id         its position in the trail
 * @param kind       what was done
 * @param actor      who did it, as the caller named itself (the CLI: the operating-system user; the console: the
 *                   signed-in principal)
 * @param at         when it began, by the database's clock
 * @param affected   how many dead letters it changed (0 for a pause or resume); counted batch by batch, so a
 *                   redrive that was interrupted shows what it had done
 * @param filterJson the filter of a redrive or discard as a JSON object; {@code {}} for a pause or resume
 */
public record OperatorAction(long id, Kind kind, String actor, Instant at, long affected, String filterJson) {

    /** What an operator did. */
    public enum Kind implements WireNamed {
        REDRIVE("redrive"),
        DISCARD("discard"),
        PAUSE("pause"),
        RESUME("resume");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        @Override
        public String wireName() {
            return wireName;
        }
    }
}
