package io.sqlstreams;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One worker as its rows stand at one moment: what {@link MaintenanceHandle#status()} answers.
 *
 * @param name            the worker's name, such as {@code stream_janitor}
 * @param targetInstances 0 suspended, −1 unbounded, N at most N live instances
 * @param liveInstances   instances whose liveness has not expired (a suspended worker's may still be stopping)
 * @param attempts        the longest streak of consecutive failed ticks among the live instances; 0 when none is
 *                        live
 * @param unclaimedFor    how long no live instance has held the worker; empty while one does. Counted from the
 *                        latest expiry of any of its instances (a released instance counts as held until its lease
 *                        would have run out), or from the worker's creation when no instance of it is on record
 * @param status          what the other fields add up to ({@link WorkerStatus#of})
 */
public record WorkerSnapshot(String name, int targetInstances, int liveInstances, int attempts,
                             Optional<Duration> unclaimedFor, WorkerStatus status) {

    public WorkerSnapshot {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(unclaimedFor, "unclaimedFor");
        Objects.requireNonNull(status, "status");
        if (targetInstances < -1 || liveInstances < 0 || attempts < 0) {
            throw new IllegalArgumentException("worker " + name + ": targetInstances must be at least -1,"
                    + " liveInstances and attempts at least 0");
        }
        if (unclaimedFor.isPresent() == liveInstances > 0 || unclaimedFor.filter(Duration::isNegative).isPresent()) {
            throw new IllegalArgumentException("worker " + name + ": unclaimedFor is a duration of at least 0"
                    + " exactly when no instance is live");
        }
    }

    /** A snapshot whose status follows from its counts. */
    public static WorkerSnapshot of(String name, int targetInstances, int liveInstances, int attempts,
                                    Optional<Duration> unclaimedFor) {
        return new WorkerSnapshot(name, targetInstances, liveInstances, attempts, unclaimedFor,
                WorkerStatus.of(targetInstances, liveInstances, attempts));
    }
}
