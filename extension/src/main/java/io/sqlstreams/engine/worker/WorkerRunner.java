package io.sqlstreams.engine.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.loop.Loop;

/**
 * Runs one instance of a worker: claims its row (retrying on the tick cadence while the worker is at its target),
 * then ticks its {@link WorkerTask} and heartbeats the row, one pass at a time on one scheduler thread. A failed
 * tick lengthens the failure streak ({@code attempts}, stored on the row) and backs off on the retry curve
 * ({@link TickPacing}); a success resets it. A requested {@link #stop} waits for a tick in progress and releases
 * the row. The runner ends by itself, with one coded line, when the worker is gone (SQL0106, found by a claim or
 * by a tick), suspended (SQL0107), its row was lost (SQL0012, logged as SQL0034), or its own machinery failed (a
 * database failure as coded, any other exit SQL0113, as every engine loop); its {@link Owner} is then told why.
 */
public final class WorkerRunner {
    /** Whom a runner tells when it ends without a requested stop. */
    @FunctionalInterface
    public interface Owner {
        void workerEnded(WorkerRunner runner, SqlStreamsException failure);
    }

    private final Engine engine;
    private final long workerId;
    private final String subject;
    private final String name;
    private final WorkerSettings settings;
    private final WorkerTask task;
    private final Owner owner;
    private final ScheduledExecutorService scheduler;
    private final boolean ownsScheduler;
    private final TickPacing pacing;
    private final Clock clock;

    // guarded by this
    private WorkerInstance instance;
    private ScheduledFuture<?> nextTick;
    private ScheduledFuture<?> nextHeartbeat;
    private int attempts;
    private boolean ended;
    private SqlStreamsException failure;

    WorkerRunner(Engine engine, long workerId, String subject, String name, WorkerSettings settings, WorkerTask task,
                 Owner owner, ScheduledExecutorService scheduler, boolean ownsScheduler, RandomGenerator random) {
        this.engine = engine;
        this.workerId = workerId;
        this.subject = subject;
        this.name = name;
        this.settings = settings;
        this.task = task;
        this.owner = owner;
        this.scheduler = scheduler;
        this.ownsScheduler = ownsScheduler;
        this.pacing = new TickPacing(settings, random);
        this.clock = engine.environment().clock();
    }

    /**
     * Validates {@code settings} (SQL0108) and starts a runner of worker {@code workerId} on a thread of the
     * engine's factory named {@code sqlstreams-worker-<name>-<workerId>}; its first claim is attempted at once.
     *
     * @param subject how the worker reads in log lines, for example {@code worker stream_janitor of stream "s"}
     */
    public static WorkerRunner start(Engine engine, long workerId, String subject, String name,
                                     WorkerSettings settings, WorkerTask task, Owner owner) {
        WorkerSettings valid = settings.validated();
        ScheduledExecutorService thread = engine.environment().threads()
                .scheduler("sqlstreams-worker-" + name + "-" + workerId);
        WorkerRunner runner = new WorkerRunner(engine, workerId, subject, name, valid, task, owner, thread, true,
                RandomGenerator.getDefault());
        runner.begin();
        return runner;
    }

    /** Schedules the first claim attempt. */
    synchronized void begin() {
        nextTick = scheduler.schedule(() -> pass(this::claimPass), 0, TimeUnit.NANOSECONDS);
    }

    /** True while the runner holds a live claim of its worker. */
    public synchronized boolean holding() {
        return instance != null && !ended;
    }

    /** The id of the instance row held, if any. */
    public synchronized Optional<Long> instanceId() {
        return holding() ? Optional.of(instance.id()) : Optional.empty();
    }

    /** The current failure streak: ticks failed in a row. */
    public synchronized int attempts() {
        return attempts;
    }

    /** Why the runner ended by itself; empty while it runs or after a requested stop. */
    public synchronized Optional<SqlStreamsException> failure() {
        return Optional.ofNullable(failure);
    }

    /** True once the runner has stopped or ended. */
    public synchronized boolean ended() {
        return ended;
    }

    /** Stops ticking once a tick in progress has returned, releases the row, and closes the runner's thread. */
    public void stop() {
        synchronized (this) {
            if (!ended) {
                finish();
            }
        }
        if (ownsScheduler) {
            scheduler.shutdownNow();
            try {
                scheduler.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** One pass on the scheduler thread, under the loop policy: a coded failure or any other exit ends the runner. */
    private synchronized void pass(Pass body) {
        if (ended) {
            return;
        }
        try {
            body.run();
        } catch (SqlStreamsException coded) {
            end(coded);
        } catch (InterruptedException interrupted) {
            end(Loop.unrequestedExit(name, "was interrupted", interrupted));
        } catch (RuntimeException | Error unexpected) {
            end(Loop.unrequestedExit(name, "threw " + unexpected, unexpected));
        }
    }

    private void claimPass() {
        WorkerInstance.Attempt claim = WorkerInstance.require(engine, workerId, subject, settings.instanceTtl());
        if (claim.instance().isEmpty()) {
            if (task.declined(claim.targetInstances())) {
                nextTick = schedule(this::claimPass, pacing.afterSuccess());
            } else {
                finish();
                if (ownsScheduler) {
                    scheduler.shutdown();
                }
            }
            return;
        }
        instance = claim.instance().get();
        nextHeartbeat = schedule(this::heartbeatPass, settings.heartbeatPeriod());
        nextTick = schedule(this::tickPass, Duration.ZERO);
    }

    private void tickPass() throws InterruptedException {
        Instant began = clock.instant();
        Exception tickFailure = null;
        try {
            task.tick();
        } catch (InterruptedException interrupted) {
            throw interrupted;
        } catch (SqlStreamsException coded) {
            if (coded.code() == Code.SQL0106) {
                throw coded;
            }
            tickFailure = coded;
        } catch (Exception failed) {
            tickFailure = failed;
        }
        Duration took = Duration.between(began, clock.instant());
        if (took.compareTo(settings.pollRate()) > 0) {
            engine.diagnostics().event(Code.SQL0040, "a tick of " + subject + " took " + took.toMillis()
                    + "ms, longer than its poll rate of " + settings.pollRate().toMillis() + "ms");
        }
        Duration delay;
        if (tickFailure == null) {
            attempts = 0;
            delay = pacing.afterSuccess();
        } else {
            attempts++;
            delay = pacing.afterFailure(attempts);
            if (attempts == settings.retry().maxRetries()) {
                engine.diagnostics().event(Code.SQL0036, subject + " failed " + attempts + " ticks in a row and"
                        + " keeps ticking every " + delay.toMillis() + "ms; latest error: " + tickFailure);
            }
        }
        instance.recordAttempts(attempts);
        nextTick = schedule(this::tickPass, delay);
    }

    private void heartbeatPass() {
        switch (instance.renew()) {
            case RENEWED -> nextHeartbeat = schedule(this::heartbeatPass, settings.heartbeatPeriod());
            case SUSPENDED -> end(new SqlStreamsException(Code.SQL0107, subject
                    + " was suspended (target instances 0); its instance stops"));
            case LOST -> end(new SqlStreamsException(Code.SQL0012, "the instance row of " + subject
                    + " expired or was removed before its heartbeat renewed it; the instance stops"));
        }
    }

    private ScheduledFuture<?> schedule(Pass body, Duration delay) {
        return scheduler.schedule(() -> pass(body), delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Ends the runner without a requested stop: one coded line, the row released, the owner told. */
    private void end(SqlStreamsException why) {
        failure = why;
        finish();
        if (why.code() == Code.SQL0012) {
            engine.diagnostics().event(Code.SQL0034, why.getMessage());
        } else {
            engine.diagnostics().event(why.code(), subject + " stops: " + why.getMessage());
        }
        if (ownsScheduler) {
            scheduler.shutdown();
        }
        owner.workerEnded(this, why);
    }

    private void finish() {
        ended = true;
        cancel(nextTick);
        cancel(nextHeartbeat);
        if (instance != null) {
            instance.release();
        }
    }

    private static void cancel(ScheduledFuture<?> pending) {
        if (pending != null) {
            pending.cancel(false);
        }
    }

    @FunctionalInterface
    private interface Pass {
        void run() throws InterruptedException;
    }
}
