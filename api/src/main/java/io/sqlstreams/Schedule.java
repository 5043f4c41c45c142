package io.sqlstreams;

import java.time.Instant;

/**
 * A registered schedule as stored: what {@link SchedulerHandle#get()} returns.
 *
 * @param name             the schedule's name, also the routing key and message key of its messages
 * @param stream           the stream its messages go to
 * @param expression       its cron expression as registered
 * @param suspended        true while it produces nothing
 * @param schemaVersion    the payload's {@link SchemaVersion}
 * @param payload          the payload every message carries, as JSON
 * @param config           its declaration: timeout, concurrency, metadata (as stored, {@code {}} for none)
 * @param nextScheduledAt  the next due time it will produce for
 * @param lastScheduledAt  the due time of its newest scheduled message; null before the first
 * @param createdAt        when it was first registered
 * @param updatedAt        when its row last changed: a differing declaration, a suspension or an unsuspension
 */
public record Schedule(String name, String stream, String expression, boolean suspended, int schemaVersion,
                       String payload, SchedulerConfig config, Instant nextScheduledAt, Instant lastScheduledAt,
                       Instant createdAt, Instant updatedAt) {
}
