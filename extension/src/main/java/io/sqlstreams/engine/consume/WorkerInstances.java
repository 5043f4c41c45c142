package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ListIterator;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Engine;
import io.sqlstreams.engine.query.InstanceQueries;
import io.sqlstreams.engine.query.InstanceQueries.Claim;
import io.sqlstreams.engine.query.InstanceQueries.Instance;
import io.sqlstreams.engine.query.InstanceQueries.Renewal;

/**
 * The liveness rows of one session: a {@code worker_instance} row for each of the group's workers, claimed
 * under the worker's target, renewed every InstanceTTL/2 (token-guarded, and only while unexpired and not
 * suspended), and deleted on stop so a replacement can claim at once. A row found expired or removed (a
 * database outage longer than InstanceTTL) is replaced by a fresh claim, and deleted if still there: the rows
 * guard nothing a session holds (its leases carry their own tokens), so the session goes on.
 */
final class WorkerInstances {
    private final Engine engine;
    private final RegisteredGroup group;
    private final InstanceQueries queries;
    private final List<Held> held = new ArrayList<>();

    WorkerInstances(Engine engine, RegisteredGroup group) {
        this.engine = engine;
        this.group = group;
        this.queries = new InstanceQueries(engine.sql());
    }

    /**
     * Claims both workers' rows; SQL0107 when a worker is suspended or at its target, SQL0014 when the group's
     * workers are gone.
     */
    synchronized void claim(Duration ttl) {
        for (String worker : List.of(GroupRows.MESSAGE_CONSUMER, GroupRows.EXCEPTION_CONSUMER)) {
            Claimed claim = claimRow(worker, ttl);
            if (claim.instance() == null) {
                release();
                throw new SqlStreamsException(Code.SQL0107, "worker " + worker + " of " + group.describe()
                        + " is suspended or at its target instance count; this session cannot start");
            }
            held.add(claim.instance());
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
            Renewal renewal = engine.database().autoCommit("renewing " + instance.worker() + " of " + group.describe(),
                    connection -> queries.renew(connection, instance.row(), ttl));
            if (!renewal.renewed()) {
                rows.set(replace(instance, ttl));
                replaced++;
            } else if (renewal.targetInstances() == 0) {
                throw suspended(instance.worker());
            }
        }
        return replaced;
    }

    private Held replace(Held lost, Duration ttl) {
        Claimed claim = claimRow(lost.worker(), ttl);
        if (claim.instance() == null) {
            throw claim.target() == 0 ? suspended(lost.worker())
                    : new SqlStreamsException(Code.SQL0012, "the " + lost.worker() + " instance of " + group.describe()
                    + " expired or was removed, and the worker is at its target instance count");
        }
        delete(lost);
        engine.diagnostics().event(Code.SQL0114, "the " + lost.worker() + " instance of " + group.describe()
                + " expired or was removed; claimed a fresh one and the session goes on");
        return claim.instance();
    }

    private SqlStreamsException suspended(String worker) {
        return new SqlStreamsException(Code.SQL0107, "worker " + worker + " of " + group.describe()
                + " was suspended; this session stops");
    }

    /** One claim attempt: the row claimed, or none (declined) with the worker's target; SQL0014 without a worker. */
    private Claimed claimRow(String worker, Duration ttl) {
        Optional<Claim> claim = engine.database().autoCommit("claiming " + worker + " of " + group.describe(),
                connection -> queries.claim(connection, group.groupId(), worker, ttl));
        if (claim.isEmpty()) {
            release();
            throw new SqlStreamsException(Code.SQL0014, "worker " + worker + " of " + group.describe()
                    + " no longer exists: the group was destroyed");
        }
        Held instance = claim.get().instance().map(row -> new Held(worker, row)).orElse(null);
        return new Claimed(instance, claim.get().targetInstances());
    }

    /** The ids of the rows this session holds. */
    synchronized List<Long> ids() {
        return held.stream().map(Held::id).toList();
    }

    /** Deletes the rows this session holds; failures are left to expiry. */
    synchronized void release() {
        held.forEach(this::delete);
        held.clear();
    }

    /** Deletes one row, if it is still there with this session's token; a failure leaves it to expiry. */
    private void delete(Held instance) {
        try {
            engine.database().autoCommit("releasing " + instance.worker() + " of " + group.describe(),
                    connection -> queries.release(connection, instance.row()));
        } catch (SqlStreamsException failure) {
            engine.diagnostics().event(Code.SQL0128, "could not release a worker instance of " + group.describe()
                    + "; it expires on its own: " + failure.getMessage());
        }
    }

    private record Held(String worker, Instance row) {
        long id() {
            return row.id();
        }
    }

    /** A claim's result: the row claimed, null when declined, and the worker's target. */
    private record Claimed(Held instance, int target) {
    }
}
