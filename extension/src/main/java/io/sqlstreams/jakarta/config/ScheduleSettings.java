package io.sqlstreams.jakarta.config;

import io.sqlstreams.SchedulerConfig;

/**
 * A schedule the application's configuration declares, already validated: everything
 * {@link io.sqlstreams.SchedulerHandle#register} takes.
 *
 * @param name        the schedule's name
 * @param stream      the stream its messages go to
 * @param expression  its cron expression
 * @param payload     the payload, decoded from its JSON into its payload type
 * @param config      timeout and concurrency
 */
public record ScheduleSettings(String name, String stream, String expression, Object payload,
                               SchedulerConfig config) {
}
