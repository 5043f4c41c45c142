package io.sqlstreams;

import java.time.Instant;

/**
 * A background job that should be running, as stored: a consumer group's {@code message_consumer} and
 * {@code exception_consumer}, a stream's janitor, …
 *
 * @param id              the worker row's id
 * @param name            the worker's name
 * @param metadata        its declared configuration document as JSON: sparse, unset fields absent
 * @param targetInstances 0 suspended, −1 unbounded, N at most N live instances
 * @param liveInstances   instances whose liveness has not expired
 * @param createdAt       when the worker was first declared
 * @param updatedAt       when its declaration last changed
 */
public record Worker(long id, String name, String metadata, int targetInstances, int liveInstances,
                     Instant createdAt, Instant updatedAt) {
}
