package io.sqlstreams.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler on a {@link SettableClock}: a task runs only when the test moves the clock past its due time with
 * {@link #advance}, on the test's thread, so timers fire exactly when a test says. One-shot tasks only; a
 * cancelled task leaves the queue at once, and a task that throws fails the {@code advance} that ran it.
 */
public final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {
    private static final Comparator<Task<?>> DUE_ORDER =
            Comparator.<Task<?>, Instant>comparing(task -> task.due).thenComparingLong(task -> task.sequence);

    private final SettableClock clock;
    private final PriorityQueue<Task<?>> tasks = new PriorityQueue<>(DUE_ORDER);
    private long sequence;
    private boolean shutdown;

    public ManualScheduler(SettableClock clock) {
        this.clock = clock;
    }

    /**
     * Moves the clock on by {@code by}, running every task that falls due on the way in due order, each at its
     * due time; a task scheduled by a running task runs too if it falls due before the end.
     */
    public void advance(Duration by) {
        Instant until = clock.instant().plus(by);
        while (true) {
            Task<?> next;
            synchronized (this) {
                next = tasks.peek();
                if (next == null || next.due.isAfter(until)) {
                    break;
                }
                tasks.poll();
            }
            if (next.due.isAfter(clock.instant())) {
                clock.advance(Duration.between(clock.instant(), next.due));
            }
            next.run();
            next.rethrowFailure();
        }
        clock.advance(Duration.between(clock.instant(), until));
    }

    /** Runs the tasks due now (those scheduled with no delay), leaving the clock where it is. */
    public void runDue() {
        advance(Duration.ZERO);
    }

    /** Tasks scheduled and neither run nor cancelled. */
    public synchronized int pending() {
        return tasks.size();
    }

    /** When the earliest pending task falls due, measured from now. */
    public synchronized Duration nextDelay() {
        Task<?> next = tasks.peek();
        if (next == null) {
            throw new IllegalStateException("nothing is scheduled");
        }
        return Duration.between(clock.instant(), next.due);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return schedule(Executors.callable(command), delay, unit);
    }

    @Override
    public synchronized <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        if (shutdown) {
            throw new RejectedExecutionException("the scheduler is shut down");
        }
        Task<V> task = new Task<>(callable, clock.instant().plus(Duration.of(delay, unit.toChronoUnit())),
                sequence++);
        tasks.add(task);
        return task;
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException("the manual scheduler runs one-shot tasks only");
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("the manual scheduler runs one-shot tasks only");
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> unrun = new ArrayList<>(tasks);
        tasks.clear();
        return unrun;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown && tasks.isEmpty();
    }

    /** Never waits: nothing runs unless the test advances the clock. */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isTerminated();
    }

    private synchronized void remove(Task<?> task) {
        tasks.remove(task);
    }

    private final class Task<V> extends FutureTask<V> implements ScheduledFuture<V> {
        final Instant due;
        final long sequence;

        Task(Callable<V> callable, Instant due, long sequence) {
            super(callable);
            this.due = due;
            this.sequence = sequence;
        }

        /** A task that throws fails the test that advanced the clock, where a real scheduler would hide it. */
        void rethrowFailure() {
            try {
                get();
            } catch (ExecutionException failure) {
                throw new AssertionError("a scheduled task failed", failure.getCause());
            } catch (CancellationException cancelledWhileRunning) {
                // nothing to report
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(Duration.between(clock.instant(), due));
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled) {
                remove(this);
            }
            return cancelled;
        }
    }
}
