package io.sqlstreams.engine.worker;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Diagnostics;

/**
 * The worker runners one process keeps for a set of worker rows (the installation's, for the system manager; a
 * consumer group's, for its session). Each {@link #reconcile} forgets runners that ended by themselves, stops those
 * whose worker is gone, and starts one for every worker that wants another instance and that this process runs
 * none of. A worker kind this process cannot run is left alone; a runner that cannot start is logged (SQL0141) and
 * tried again at the next pass.
 *
 * @param <R> the worker rows as their query reads them
 */
public final class Fleet<R> {
    /** Starts a runner for one worker row; empty for a worker kind this process does not run. */
    @FunctionalInterface
    public interface Provisioner<R> {
        Optional<WorkerRunner> start(R worker, WorkerRunner.Owner owner);
    }

    private final Diagnostics diagnostics;
    private final String subject;
    private final ToLongFunction<R> id;
    private final Predicate<R> wantsAnInstance;
    private final Provisioner<R> provisioner;
    private final Map<Long, WorkerRunner> running = new LinkedHashMap<>();

    /**
     * @param subject         how the fleet's owner reads in log lines, for example {@code the system manager}
     * @param wantsAnInstance whether a worker row is below its target (or at −1), so that a runner should claim it
     */
    public Fleet(Diagnostics diagnostics, String subject, ToLongFunction<R> id, Predicate<R> wantsAnInstance,
                 Provisioner<R> provisioner) {
        this.diagnostics = diagnostics;
        this.subject = subject;
        this.id = id;
        this.wantsAnInstance = wantsAnInstance;
        this.provisioner = provisioner;
    }

    /** Brings the runners in line with {@code workers}, the rows as they stand now; how many run afterwards. */
    public synchronized int reconcile(List<R> workers) {
        running.values().removeIf(WorkerRunner::ended);
        Set<Long> listed = new HashSet<>();
        workers.forEach(worker -> listed.add(id.applyAsLong(worker)));
        running.entrySet().removeIf(entry -> {
            if (listed.contains(entry.getKey())) {
                return false;
            }
            entry.getValue().stop();
            return true;
        });
        for (R worker : workers) {
            long workerId = id.applyAsLong(worker);
            if (!running.containsKey(workerId) && wantsAnInstance.test(worker)) {
                start(workerId, worker);
            }
        }
        return running.size();
    }

    private void start(long workerId, R worker) {
        try {
            provisioner.start(worker, (runner, failure) -> {
            }).ifPresent(runner -> running.put(workerId, runner));
        } catch (SqlStreamsException refused) {
            diagnostics.event(Code.SQL0141, subject + " could not start worker " + workerId + "; the next pass tries"
                    + " again: " + refused.getMessage());
        }
    }

    /** How many runners this fleet has that have not ended. */
    public synchronized int size() {
        running.values().removeIf(WorkerRunner::ended);
        return running.size();
    }

    /** Stops every runner, releasing the rows they hold. */
    public synchronized void stopAll() {
        running.values().forEach(WorkerRunner::stop);
        running.clear();
    }
}
