package io.sqlstreams.engine.janitor;

import java.time.Duration;

import io.sqlstreams.SqlStreamsException;

/**
 * What one step of a janitor's pass did.
 *
 * @param step    the step
 * @param count   what it removed (or, for {@link JanitorStep#CREATE_AHEAD}, created) before it ended; see the step
 * @param took    how long it ran, retries included
 * @param failure the coded failure that ended it, or {@code null} when it finished
 */
public record StepReport(JanitorStep step, long count, Duration took, SqlStreamsException failure) {

    public boolean done() {
        return failure == null;
    }
}
