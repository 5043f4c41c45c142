package io.sqlstreams.engine.consume;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Engine;

/**
 * The liveness rows of one session: a {@code worker_instance} row for each of the group's workers, claimed
 * under the worker's target, renewed every InstanceTTL/2 (token-guarded, and only while unexpired and not
 * suspended), and deleted on stop so a replacement can claim at once.
 */
final class WorkerInstances {
    private final Engine engine;
    private final RegisteredGroup group;
    private final List<Held> held = new ArrayList<>();

    WorkerInstances(Engine engine, RegisteredGroup group) {
        this.engine = engine;
        this.group = group;
    }

    /** Claims both workers' rows; SQL0107 when a worker is suspended or at its target. */
    synchronized void claim(Duration ttl) {
        for (String worker : List.of(GroupRows.MESSAGE_CONSUMER, GroupRows.EXCEPTION_CONSUMER)) {
            Held instance = engine.database().autoCommit("claiming " + worker + " of " + group.describe(), connection -> {
                try (PreparedStatement claim = connection.prepareStatement(engine.sql().get("claim_worker_instance"))) {
                    claim.setLong(1, group.groupId());
                    claim.setString(2, worker);
                    claim.setLong(3, FreshClaimer.micros(ttl));
                    try (ResultSet row = claim.executeQuery()) {
                        return row.next() ? new Held(worker, row.getLong(1), row.getString(2)) : null;
                    }
                }
            });
            if (instance == null) {
                release();
                throw new SqlStreamsException(Code.SQL0107, "worker " + worker + " of " + group.describe()
                        + " is suspended or at its target instance count; this session cannot start");
            }
            held.add(instance);
        }
    }

    /**
     * Renews every row. SQL0107 when a worker was suspended (target 0): the session stops on purpose. SQL0012
     * when a row expired or was removed: this session has lost its liveness (SQL0034).
     */
    synchronized void renew(Duration ttl) {
        for (Held instance : held) {
            long[] renewed = engine.database().autoCommit("renewing " + instance.worker() + " of " + group.describe(),
                    connection -> {
                        try (PreparedStatement renew = connection.prepareStatement(engine.sql().get("renew_worker_instance"))) {
                            renew.setLong(1, FreshClaimer.micros(ttl));
                            renew.setLong(2, instance.id());
                            renew.setString(3, instance.token());
                            try (ResultSet row = renew.executeQuery()) {
                                row.next();
                                return new long[] {row.getLong(1), row.getLong(2)};
                            }
                        }
                    });
            if (renewed[0] == 0) {
                engine.diagnostics().event(Code.SQL0034, "worker instance of " + instance.worker() + " of "
                        + group.describe() + " was lost (expired or removed); stopping");
                throw new SqlStreamsException(Code.SQL0012, "the " + instance.worker() + " instance of "
                        + group.describe() + " expired or was removed");
            }
            if (renewed[1] == 0) {
                throw new SqlStreamsException(Code.SQL0107, "worker " + instance.worker() + " of " + group.describe()
                        + " was suspended; this session stops");
            }
        }
    }

    /** The ids of the rows this session holds. */
    synchronized List<Long> ids() {
        return held.stream().map(Held::id).toList();
    }

    /** Deletes the rows this session holds; failures are left to expiry. */
    synchronized void release() {
        for (Held instance : held) {
            try {
                engine.database().autoCommit("releasing " + instance.worker() + " of " + group.describe(), connection -> {
                    try (PreparedStatement release = connection.prepareStatement(engine.sql().get("release_worker_instance"))) {
                        release.setLong(1, instance.id());
                        release.setString(2, instance.token());
                        return release.executeUpdate();
                    }
                });
            } catch (SqlStreamsException failure) {
                engine.diagnostics().info("could not release a worker instance of " + group.describe()
                        + "; it expires on its own: " + failure.getMessage());
            }
        }
        held.clear();
    }

    private record Held(String worker, long id, String token) {
    }
}
