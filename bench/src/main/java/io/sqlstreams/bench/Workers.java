package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the tasks of one measurement on threads of their own: every thread is started first, then all are
 * released at one instant, and each one's end is recorded. A task that fails fails the measurement and
 * interrupts the others; a measurement still running long after its time is up fails as hung.
 */
final class Workers {
    /** How long past its measurement time a measurement may take (draining, closing) before it is called hung. */
    static final Duration GRACE = Duration.ofMinutes(2);

    /** One thread's work; {@code startNanos} is the {@link System#nanoTime()} of the common release. */
    @FunctionalInterface
    interface Task<T> {
        T run(long startNanos) throws Exception;
    }

    /** The tasks' values in task order, with the seconds from the release to each task's end. */
    record Outcome<T>(List<T> values, List<Double> seconds) {

        T value(int task) {
            return values.get(task);
        }

        double seconds(int task) {
            return seconds.get(task);
        }

        /** Seconds from the release until the last task ended. */
        double secondsUntilLast() {
            return seconds.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        }
    }

    private Workers() {
    }

    static <T> Outcome<T> runTogether(String name, Duration measurement, List<Task<T>> tasks) throws Exception {
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(tasks.size(), runnable -> {
            Thread thread = new Thread(runnable, "bench-" + name + "-" + threads.incrementAndGet());
            thread.setDaemon(true); // a hung engine call must not keep the JVM alive
            return thread;
        });
        CountDownLatch ready = new CountDownLatch(tasks.size());
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong start = new AtomicLong();
        try {
            List<Future<Ended<T>>> futures = new ArrayList<>();
            for (Task<T> task : tasks) {
                futures.add(executor.submit(() -> {
                    ready.countDown();
                    release.await();
                    return new Ended<>(task.run(start.get()), System.nanoTime());
                }));
            }
            ready.await();
            start.set(System.nanoTime());
            release.countDown();
            long deadline = start.get() + measurement.plus(GRACE).toNanos();
            List<T> values = new ArrayList<>();
            List<Double> seconds = new ArrayList<>();
            for (Future<Ended<T>> future : futures) {
                Ended<T> ended = awaitEnd(future, deadline, name);
                values.add(ended.value());
                seconds.add((ended.nanos() - start.get()) / 1e9);
            }
            return new Outcome<>(values, seconds);
        } finally {
            executor.shutdownNow();
        }
    }

    private record Ended<T>(T value, long nanos) {
    }

    private static <T> Ended<T> awaitEnd(Future<Ended<T>> end, long deadline, String name) throws Exception {
        try {
            return end.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        } catch (TimeoutException e) {
            throw new IllegalStateException(name + " was still running " + GRACE.toMinutes()
                    + " min after its measurement time: treated as hung", e);
        }
    }
}
