package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ListIterator;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.worker.WorkerInstance;

/**
 * The liveness rows of one session: a {@link WorkerInstance} for each of the group's workers, claimed under the
 * worker's target, renewed every InstanceTTL/2 (token-guarded, and only while unexpired and not suspended), and
 * deleted on stop so a replacement can claim at once. A row found expired or removed (a database outage longer
 * than InstanceTTL) is replaced by a fresh claim, and deleted if still there: the rows guard nothing a session
 * holds (its leases carry their own tokens), so the session goes on.
 */
final class WorkerInstances {
    private final Engine engine;
    private final RegisteredGroup group;
    private final List<Held> held = new ArrayList<>();

    WorkerInstances(Engine engine, RegisteredGroup group) {
        this.engine = engine;
        this.group = group;
    }

    /**
     * Claims both workers' rows; SQL0107 when a worker is suspended or at its target, SQL0014 when the group's
     * workers are gone.
     */
    synchronized void claim(Duration ttl) {
        for (String worker : List.of(GroupRows.MESSAGE_CONSUMER, GroupRows.EXCEPTION_CONSUMER)) {
            long workerId = workerId(worker);
            Optional<WorkerInstance> claimed = claimRow(workerId, worker, ttl).instance();
            if (claimed.isEmpty()) {
                release();
                throw new SqlStreamsException(Code.SQL0107, "worker " + worker + " of " + group.describe()
                        + " is suspended or at its target instance count; this session cannot start");
            }
            held.add(new Held(worker, workerId, claimed.get()));
        }
    }

    /**
     * Renews every row, replacing a lost one by a fresh claim (SQL0114); returns how many were replaced. SQL0107
     * when a worker was suspended (target 0): the session stops on purpose. SQL0012 when a lost row cannot be
     * replaced because its worker is at its target; SQL0014 when the group's workers are gone.
     */
    synchronized int renew(Duration ttl) {
        int replaced = 0;
        for (ListIterator<Held> rows = held.listIterator(); rows.hasNext(); ) {
            Held instance = rows.next();
            switch (instance.row().renew()) {
                case LOST -> {
                    rows.set(replace(instance, ttl));
                    replaced++;
                }
                case SUSPENDED -> throw suspended(instance.worker());
                case RENEWED -> {
                }
            }
        }
        return replaced;
    }

    private Held replace(Held lost, Duration ttl) {
        WorkerInstance.Attempt claim = claimRow(lost.workerId(), lost.worker(), ttl);
        if (claim.instance().isEmpty()) {
            throw claim.targetInstances() == 0 ? suspended(lost.worker())
                    : new SqlStreamsException(Code.SQL0012, "the " + lost.worker() + " instance of " + group.describe()
                    + " expired or was removed, and the worker is at its target instance count");
        }
        lost.row().release();
        engine.diagnostics().event(Code.SQL0114, "the " + lost.worker() + " instance of " + group.describe()
                + " expired or was removed; claimed a fresh one and the session goes on");
        return new Held(lost.worker(), lost.workerId(), claim.instance().get());
    }

    private SqlStreamsException suspended(String worker) {
        return new SqlStreamsException(Code.SQL0107, "worker " + worker + " of " + group.describe()
                + " was suspended; this session stops");
    }

    /** The id of one of the group's workers; SQL0014 when it is gone. */
    private long workerId(String worker) {
        WorkerQueries workers = new WorkerQueries(engine.sql());
        return engine.database().autoCommit("finding " + worker + " of " + group.describe(),
                        connection -> workers.find(connection, WorkerQueries.Owner.CONSUMER_GROUP, group.groupId(),
                                worker))
                .orElseThrow(() -> gone(worker)).id();
    }

    /** One claim attempt: the row claimed, or none (declined) with the worker's target; SQL0014 without a worker. */
    private WorkerInstance.Attempt claimRow(long workerId, String worker, Duration ttl) {
        return WorkerInstance.attempt(engine, workerId, "worker " + worker + " of " + group.describe(), ttl)
                .orElseThrow(() -> gone(worker));
    }

    private SqlStreamsException gone(String worker) {
        release();
        return new SqlStreamsException(Code.SQL0014, "worker " + worker + " of " + group.describe()
                + " no longer exists: the group was destroyed");
    }

    /** The ids of the rows this session holds. */
    synchronized List<Long> ids() {
        return held.stream().map(instance -> instance.row().id()).toList();
    }

    /** Deletes the rows this session holds; failures are left to expiry. */
    synchronized void release() {
        held.forEach(instance -> instance.row().release());
        held.clear();
    }

    private record Held(String worker, long workerId, WorkerInstance row) {
    }
}
