package io.sqlstreams.engine.worker;

import java.time.Duration;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.InstanceQueries;
import io.sqlstreams.engine.query.InstanceQueries.Claim;
import io.sqlstreams.engine.query.InstanceQueries.Renewal;

/**
 * One {@code worker_instance} row this process holds for a worker of any owner (system, stream or group): claimed
 * under the worker's target, renewed with its token while unexpired, and deleted on release so a replacement can
 * claim at once. It also carries the holder's failure streak ({@code attempts}), which every renewal writes.
 */
public final class WorkerInstance {
    /** What a renewal found. */
    public enum Heartbeat {
        /** the row was live with this token and is extended by InstanceTTL */
        RENEWED,
        /** the row was renewed, but the worker's target is now zero: the holder should stop */
        SUSPENDED,
        /** the row had expired or was gone (an expired row may already be replaced): the holder has lost it */
        LOST
    }

    /** One claim attempt: the row claimed (empty when declined at the target or suspended) and the worker's target. */
    public record Attempt(Optional<WorkerInstance> instance, int targetInstances) {
    }

    private final Engine engine;
    private final InstanceQueries queries;
    private final String subject;
    private final InstanceQueries.Instance row;
    private final Duration ttl;
    private volatile int attempts;

    private WorkerInstance(Engine engine, InstanceQueries queries, String subject, InstanceQueries.Instance row,
                           Duration ttl) {
        this.engine = engine;
        this.queries = queries;
        this.subject = subject;
        this.row = row;
        this.ttl = ttl;
    }

    /**
     * Tries once to claim a row of worker {@code workerId} for {@code ttl}; empty when the worker does not exist.
     *
     * @param subject how the worker reads in messages, for example {@code worker stream_janitor of stream "s"}
     */
    public static Optional<Attempt> attempt(Engine engine, long workerId, String subject, Duration ttl) {
        InstanceQueries queries = new InstanceQueries(engine.sql());
        Optional<Claim> claim = engine.database().inTransaction("claiming " + subject,
                connection -> queries.claim(connection, workerId, ttl));
        return claim.map(found -> new Attempt(
                found.instance().map(row -> new WorkerInstance(engine, queries, subject, row, ttl)),
                found.targetInstances()));
    }

    /** Tries once to claim a row of the worker, as {@link #attempt}; SQL0106 when the worker does not exist. */
    public static Attempt require(Engine engine, long workerId, String subject, Duration ttl) {
        return attempt(engine, workerId, subject, ttl)
                .orElseThrow(() -> new SqlStreamsException(Code.SQL0106, subject + " (id " + workerId
                        + ") has no definition row"));
    }

    /** Claims a row of the worker; empty when declined (at its target, or suspended), SQL0106 when it does not exist. */
    public static Optional<WorkerInstance> claim(Engine engine, long workerId, String subject, Duration ttl) {
        return require(engine, workerId, subject, ttl).instance();
    }

    public long id() {
        return row.id();
    }

    /** Extends the row by InstanceTTL if it is still live with this token, and says what the worker's target is. */
    public Heartbeat renew() {
        Renewal renewal = engine.database().inTransaction("renewing " + subject,
                transaction -> queries.renew(transaction, row, ttl, attempts));
        if (!renewal.renewed()) {
            return Heartbeat.LOST;
        }
        return renewal.targetInstances() == 0 ? Heartbeat.SUSPENDED : Heartbeat.RENEWED;
    }

    /**
     * Stores a new failure streak on the row. The next renewal writes it too, so a write that fails here is only
     * late, and its failure is left to that renewal.
     */
    public void recordAttempts(int streak) {
        if (streak == attempts) {
            return;
        }
        attempts = streak;
        try {
            engine.database().autoCommit("recording the failure streak of " + subject,
                    connection -> {
                        queries.recordAttempts(connection, row, streak);
                        return null;
                    });
        } catch (SqlStreamsException lateUntilTheNextRenewal) {
            // the next renewal writes the streak with the new expiry
        }
    }

    /** Deletes the row if it is still held with this token; a failure is logged (SQL0128) and left to expiry. */
    public void release() {
        try {
            engine.database().autoCommit("releasing " + subject, connection -> queries.release(connection, row));
        } catch (SqlStreamsException failure) {
            engine.diagnostics().event(Code.SQL0128, "could not release the instance of " + subject
                    + "; it expires on its own: " + failure.getMessage());
        }
    }
}
