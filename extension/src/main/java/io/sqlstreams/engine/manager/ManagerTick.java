package io.sqlstreams.engine.manager;

import java.time.Duration;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.InstanceQueries;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.query.WorkerQueries.FleetRow;
import io.sqlstreams.engine.worker.Fleet;
import io.sqlstreams.engine.worker.WorkerSettings;
import io.sqlstreams.engine.worker.WorkerTask;

/**
 * One discovery tick of the process holding the {@code manager} worker: reads every system and stream worker row,
 * brings this process's runners in line with them ({@link Fleet}), deletes expired {@code worker_instance} rows and
 * the liveness history recorded to expire longer ago than InstanceLogTTL.
 */
final class ManagerTick implements WorkerTask {
    /** Log rows deleted per statement; a tick deletes at most {@link #LOG_SWEEP_BATCHES} batches. */
    static final int LOG_SWEEP_BATCH = 1000;
    static final int LOG_SWEEP_BATCHES = 100;

    private final Engine engine;
    private final ManagerService service;
    private final Fleet<FleetRow> fleet;
    private final WorkerSettings settings;
    private final Duration instanceLogTtl;
    private final WorkerQueries workers;
    private final InstanceQueries instances;
    /** Touched on the runner's thread only. */
    private boolean started;

    ManagerTick(Engine engine, ManagerService service, Fleet<FleetRow> fleet, WorkerSettings settings,
                Duration instanceLogTtl) {
        this.engine = engine;
        this.service = service;
        this.fleet = fleet;
        this.settings = settings;
        this.instanceLogTtl = instanceLogTtl;
        this.workers = new WorkerQueries(engine.sql());
        this.instances = new InstanceQueries(engine.sql());
    }

    @Override
    public void tick() {
        if (!started) {
            started = true;
            service.holding();
            engine.diagnostics().event(Code.SQL0140, "the system manager started an instance with poll_rate "
                    + DurationText.format(settings.pollRate()) + ", instance_ttl "
                    + DurationText.format(settings.instanceTtl()) + ", instance_log_ttl "
                    + DurationText.format(instanceLogTtl));
        }
        List<FleetRow> rows = engine.database().autoCommit("listing the installation's workers", workers::fleet);
        fleet.reconcile(rows);
        engine.database().autoCommit("sweeping expired worker instances", instances::sweepExpired);
        for (int batch = 0; batch < LOG_SWEEP_BATCHES; batch++) {
            int swept = engine.database().autoCommit("sweeping old worker instance history",
                    connection -> instances.sweepLog(connection, instanceLogTtl, LOG_SWEEP_BATCH));
            if (swept < LOG_SWEEP_BATCH) {
                return;
            }
        }
    }

    @Override
    public boolean declined(int targetInstances) {
        service.declined(targetInstances);
        return true;
    }
}
