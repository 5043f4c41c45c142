package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Worker;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.worker.Fleet;
import io.sqlstreams.engine.worker.WorkerRunner;
import io.sqlstreams.engine.worker.WorkerSettings;
import io.sqlstreams.engine.worker.WorkerTask;

/**
 * The group-owned workers one session runs for all the group's instances: {@code cursor_advancer} (target 1, so
 * one session of the group advances the committed cursor every second). The session reconciles a {@link Fleet}
 * over the group's worker rows when it starts and at every heartbeat; a runner starts only while its worker has
 * fewer live instances than its target. A runner whose claim is declined (another session won) ends quietly rather
 * than polling the row, and a later reconcile starts one again once the holder's claim is gone (released by a
 * stopping holder, expired for a dead one). The session's own {@code message_consumer} and
 * {@code exception_consumer} rows are its liveness, kept by {@link WorkerInstances}, not by this fleet.
 */
final class GroupWorkers {
    static final Duration CURSOR_ADVANCE_PERIOD = Duration.ofSeconds(1);

    private final Engine engine;
    private final RegisteredGroup group;
    private final WorkerQueries workers;
    private final Fleet<Worker> fleet;
    // guarded by this: once stopped, a reconcile still running on the heartbeat thread starts nothing
    private boolean stopped;

    GroupWorkers(Engine engine, RegisteredGroup group, Duration instanceTtl, CursorAdvancer advancer) {
        this.engine = engine;
        this.group = group;
        this.workers = new WorkerQueries(engine.sql());
        this.fleet = new Fleet<>(engine.diagnostics(), group.describe(), Worker::id,
                worker -> worker.targetInstances() == -1 || worker.liveInstances() < worker.targetInstances(),
                (worker, owner) -> start(worker, owner, instanceTtl, advancer));
    }

    /** Brings the session's runners in line with the group's rows; a failure to read them is logged (SQL0141). */
    synchronized void reconcile() {
        if (stopped) {
            return;
        }
        try {
            List<Worker> rows = engine.database().autoCommit("listing the workers of " + group.describe(),
                    connection -> workers.ofGroup(connection, group.groupId()));
            fleet.reconcile(rows);
        } catch (SqlStreamsException failure) {
            engine.diagnostics().event(Code.SQL0141, group.describe() + " could not reconcile its workers; the next"
                    + " heartbeat tries again: " + failure.getMessage());
        }
    }

    /** Stops the session's runners for good, releasing their claims. */
    synchronized void stop() {
        stopped = true;
        fleet.stopAll();
    }

    private Optional<WorkerRunner> start(Worker worker, WorkerRunner.Owner owner, Duration instanceTtl,
                                         CursorAdvancer advancer) {
        if (!worker.name().equals(GroupRows.CURSOR_ADVANCER)) {
            return Optional.empty();
        }
        String subject = "worker " + GroupRows.CURSOR_ADVANCER + " of " + group.describe();
        return Optional.of(WorkerRunner.start(engine, worker.id(), subject, GroupRows.CURSOR_ADVANCER,
                WorkerSettings.of(CURSOR_ADVANCE_PERIOD).withInstanceTtl(instanceTtl),
                new AdvanceTick(engine.diagnostics(), subject, advancer), owner));
    }

    /**
     * One advance of the committed cursor. A failed one is logged at DEBUG (SQL0130) and fails the tick, so the
     * runner backs off; once the group's cursor is gone the tick throws SQL0106, which ends the runner.
     */
    private record AdvanceTick(Diagnostics diagnostics, String subject, CursorAdvancer advancer)
            implements WorkerTask {
        @Override
        public void tick() {
            boolean cursorExists;
            try {
                cursorExists = advancer.advance();
            } catch (SqlStreamsException failed) {
                diagnostics.debug(Code.SQL0130, () -> "a tick of " + subject + " failed: " + failed.getMessage());
                throw failed;
            }
            if (!cursorExists) {
                throw new SqlStreamsException(Code.SQL0106, subject + " has no cursor any more: its group was"
                        + " destroyed");
            }
        }

        /** A declined claim ends the runner: the next reconcile starts one once the holder's claim is gone. */
        @Override
        public boolean declined(int targetInstances) {
            return false;
        }
    }
}
