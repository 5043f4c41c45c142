package io.sqlstreams.engine.janitor;

import java.time.Duration;

import io.sqlstreams.SqlStreamsException;

/**
 * What one {@code VACUUM (ANALYZE)} of a stream's idempotency claims did.
 *
 * @param streamId the stream's id
 * @param took     how long it ran, retries included
 * @param failure  the coded failure that ended it, or {@code null} when it finished
 */
public record VacuumPass(long streamId, Duration took, SqlStreamsException failure) {

    public boolean done() {
        return failure == null;
    }
}
