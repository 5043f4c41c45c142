package io.sqlstreams.engine.manager;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

import io.sqlstreams.Code;
import io.sqlstreams.ManagerConfig;
import io.sqlstreams.ManagerHandle;
import io.sqlstreams.ManagerStatus;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.RunningSessions;
import io.sqlstreams.engine.alert.StoredSystemConfig;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.WorkerQueries.FleetRow;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.worker.Fleet;
import io.sqlstreams.engine.worker.SystemWorkerNames;
import io.sqlstreams.engine.worker.TickPacing;
import io.sqlstreams.engine.worker.WorkerRunner;
import io.sqlstreams.engine.worker.WorkerSettings;

/**
 * This process's system manager. Whoever takes part (every consume session, unless the client disables it, and
 * every {@link #run()}) keeps it going; the first to join starts a {@link WorkerRunner} that claims the
 * {@code manager} worker under its target, and the last to leave stops it, releasing the claim and stopping the
 * workers it ran. While it holds the claim, each tick reconciles the installation's workers ({@link ManagerTick}).
 * When the runner ends by itself (the claim lost, the database failing, the manager suspended) the workers it ran
 * stop, one line says why (SQL0065, or SQL0035 when suspended), and a new runner claims again after a back-off on
 * the refresh retry curve: degraded upkeep never stops a session.
 */
public final class ManagerService implements ManagerHandle, RunningSessions.Companion {
    private static final String SUBJECT = "the system manager";

    private final Engine engine;
    private final ManagerConfig config;
    private final SystemWorkers systemWorkers;
    private final WorkerQueries workers;
    private final Fleet<FleetRow> fleet;

    // guarded by this
    private int participants;
    private long stopRequests;
    private WorkerRunner runner;
    private WorkerSettings settings;
    private volatile ScheduledExecutorService restarts;
    private ScheduledFuture<?> pendingRestart;

    private volatile ManagerStatus.State state = ManagerStatus.State.STOPPED;
    private volatile String lastError;
    private volatile boolean suspensionLogged;
    private final AtomicInteger failedStarts = new AtomicInteger();

    public ManagerService(Engine engine) {
        this.engine = engine;
        this.config = engine.config().manager();
        this.systemWorkers = new SystemWorkers(engine.sql(), engine.diagnostics(), engine.declarer());
        this.workers = new WorkerQueries(engine.sql());
        this.fleet = new Fleet<>(engine.diagnostics(), SUBJECT, FleetRow::id, FleetRow::wantsAnInstance,
                new SystemProvisioner(engine, managerSettings(SystemConfig.DEFAULT_MANAGER_POLL_RATE)));
    }

    @Override
    public void run() {
        long stopsBefore;
        synchronized (this) {
            stopsBefore = stopRequests;
            join(true);
        }
        try {
            synchronized (this) {
                while (stopRequests == stopsBefore) {
                    wait();
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            leave();
        }
    }

    @Override
    public synchronized void stop() {
        stopRequests++;
        notifyAll();
    }

    @Override
    public ManagerStatus status() {
        synchronized (this) {
            if (participants == 0) {
                return new ManagerStatus(engine.config().disableManager() ? ManagerStatus.State.DISABLED
                        : ManagerStatus.State.STOPPED, 0, Optional.empty());
            }
        }
        ManagerStatus.State now = state;
        return new ManagerStatus(now, now == ManagerStatus.State.HOLDING ? fleet.size() : 0,
                now == ManagerStatus.State.RESTARTING ? Optional.ofNullable(lastError) : Optional.empty());
    }

    @Override
    public synchronized void firstSessionStarting() {
        if (!engine.config().disableManager()) {
            join(false);
        }
    }

    @Override
    public void lastSessionStopped() {
        if (!engine.config().disableManager()) {
            leave();
        }
    }

    /** Ends every participation, as the client's close does. */
    public void close() {
        synchronized (this) {
            stop();
            if (participants > 0) {
                participants = 1;
            }
        }
        leave();
    }

    /**
     * Takes part; the first participant starts the runner. A caller that needs to know whether the start works
     * ({@code startNow}) starts it on its own thread and gets its failure; a session starts it in the background.
     */
    private void join(boolean startNow) {
        participants++;
        if (participants > 1) {
            return;
        }
        restarts = engine.environment().threads().scheduler("sqlstreams-manager-supervisor");
        state = ManagerStatus.State.WAITING;
        if (!startNow) {
            pendingRestart = restarts.schedule(this::restart, 0, TimeUnit.NANOSECONDS);
            return;
        }
        try {
            startRunner();
        } catch (RuntimeException | Error refused) {
            participants--;
            shutDown();
            throw refused;
        }
    }

    private synchronized void leave() {
        if (participants == 0) {
            return;
        }
        participants--;
        if (participants == 0) {
            shutDown();
        }
    }

    /** Stops the runner (releasing the claim), the workers it ran, and the supervisor thread. */
    private void shutDown() {
        if (pendingRestart != null) {
            pendingRestart.cancel(false);
            pendingRestart = null;
        }
        if (runner != null) {
            runner.stop();
            runner = null;
        }
        fleet.stopAll();
        if (restarts != null) {
            restarts.shutdownNow();
            restarts = null;
        }
        state = ManagerStatus.State.STOPPED;
        failedStarts.set(0);
    }

    /**
     * Starts a runner on the {@code manager} row: the installation must exist (SQL0017); the system's worker rows
     * are inserted where missing; the poll rate is the one the row holds now.
     */
    private void startRunner() {
        if (!engine.migrator().installed()) {
            throw new SqlStreamsException(Code.SQL0017, "there is no installation in schema " + engine.sql().schema()
                    + " to manage: register the system or a stream first");
        }
        long systemId = engine.migrator().ensureSystem();
        WorkerQueries.Declared manager = engine.database().inTransaction("declaring the system's workers",
                connection -> {
                    systemWorkers.ensure(connection, systemId);
                    return workers.find(connection, WorkerQueries.Owner.SYSTEM, systemId, SystemWorkerNames.MANAGER)
                            .orElseThrow();
                });
        SystemConfig system = new SystemConfig(StoredSystemConfig.pollRate(manager.metadata()));
        settings = managerSettings(system.resolvedManagerPollRate());
        runner = WorkerRunner.start(engine, manager.id(), SUBJECT, SystemWorkerNames.MANAGER, settings,
                new ManagerTick(engine, this, fleet, settings, config.resolvedInstanceLogTtl()), this::ended);
    }

    /** The manager's claim settings from {@link ManagerConfig} around {@code pollRate}. */
    private WorkerSettings managerSettings(Duration pollRate) {
        return new WorkerSettings(pollRate, config.resolvedInstanceTtl(), config.resolvedJitterFraction(),
                config.refreshRetry());
    }

    /** A new runner or a restart after a failure; a failed start is retried after the next back-off. */
    private synchronized void restart() {
        pendingRestart = null;
        if (participants == 0 || runner != null) {
            return;
        }
        try {
            startRunner();
        } catch (SqlStreamsException failure) {
            restartAfter(failure);
        }
    }

    /**
     * Told on the runner's own thread while it holds the runner's lock, which {@link #leave} may be waiting for under
     * this one's: so it takes no lock here and hands the work to the supervisor's thread.
     */
    private void ended(WorkerRunner endedRunner, SqlStreamsException failure) {
        ScheduledExecutorService supervisor = restarts;
        if (supervisor != null) {
            try {
                supervisor.execute(() -> afterEnd(endedRunner, failure));
            } catch (RejectedExecutionException shutDownMeanwhile) {
                // the last participant left while the runner ended: nothing is restarted
            }
        }
    }

    private synchronized void afterEnd(WorkerRunner endedRunner, SqlStreamsException failure) {
        if (runner != endedRunner) {
            return;
        }
        runner = null;
        fleet.stopAll();
        if (failure.code() == Code.SQL0107) {
            declined(0);
            pendingRestart = restarts.schedule(this::restart, settings.pollRate().toNanos(), TimeUnit.NANOSECONDS);
            return;
        }
        restartAfter(failure);
    }

    private void restartAfter(SqlStreamsException failure) {
        int streak = failedStarts.incrementAndGet();
        WorkerSettings curve = settings != null ? settings
                : WorkerSettings.of(SystemConfig.DEFAULT_MANAGER_POLL_RATE).withRetry(config.refreshRetry());
        Duration delay = new TickPacing(curve, RandomGenerator.getDefault()).afterFailure(streak);
        state = ManagerStatus.State.RESTARTING;
        lastError = failure.code().id() + " " + failure.getMessage();
        engine.diagnostics().event(Code.SQL0065, SUBJECT + " stopped and claims again in " + delay.toMillis()
                + "ms: " + lastError);
        pendingRestart = restarts.schedule(this::restart, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The runner's first tick after a claim: this process holds the manager. */
    void holding() {
        state = ManagerStatus.State.HOLDING;
        suspensionLogged = false;
        failedStarts.set(0);
    }

    /** A claim was declined: another process holds the manager, or its target is 0 (logged once, SQL0035). */
    void declined(int targetInstances) {
        if (targetInstances != 0) {
            state = ManagerStatus.State.WAITING;
            suspensionLogged = false;
            return;
        }
        state = ManagerStatus.State.SUSPENDED;
        if (!suspensionLogged) {
            suspensionLogged = true;
            engine.diagnostics().event(Code.SQL0035, SUBJECT + " is suspended (target instances 0): no process"
                    + " reconciles the installation's workers until it is unsuspended");
        }
    }
}
