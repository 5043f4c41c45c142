package io.sqlstreams.engine.loop;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.EngineThreads;

/**
 * A long-lived loop on its own thread of the host's factory, under the one exit policy of every engine loop: it
 * repeats its body until {@link #stop()} is requested, and any other exit fails its owner. A body that throws a
 * coded failure hands the owner that failure; an interrupt (thrown, or left set after a pass) or an uncoded
 * exception reaches the owner as SQL0113. An interrupt after a requested stop is an ordinary exit.
 */
public final class Loop {

    /** One pass of a loop. It may block, and waits with {@link Loop#pause} so that a stop wakes it. */
    @FunctionalInterface
    public interface Body {
        void pass(Loop loop) throws InterruptedException;
    }

    /** Whom a loop fails when it exits without a requested stop. */
    @FunctionalInterface
    public interface Owner {
        void loopFailed(Loop loop, SqlStreamsException failure);
    }

    private final String name;
    private final Body body;
    private final Owner owner;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final ReentrantLock wakeLock = new ReentrantLock();
    private final Condition wakeSignal = wakeLock.newCondition();
    private boolean woken;
    private final Thread thread;

    private Loop(EngineThreads threads, String name, Body body, Owner owner) {
        this.name = name;
        this.body = body;
        this.owner = owner;
        this.thread = threads.thread(name, this::run);
    }

    /** Starts {@code body} on a new thread of {@code threads}, named {@code name}. */
    public static Loop start(EngineThreads threads, String name, Body body, Owner owner) {
        Loop loop = new Loop(threads, name, body, owner);
        loop.thread.start();
        return loop;
    }

    /** A body that waits {@code period} (a stop cuts the wait short) and then runs {@code task}. */
    public static Body every(Duration period, Runnable task) {
        return loop -> {
            loop.pause(period);
            if (!loop.stopping()) {
                task.run();
            }
        };
    }

    public String name() {
        return name;
    }

    /** True once a stop was requested. */
    public boolean stopping() {
        return stopRequested.getCount() == 0;
    }

    /** Asks the loop to end after its current pass, and wakes it from a {@link #pause}. */
    public void stop() {
        stopRequested.countDown();
        signalWake();
    }

    /** Waits {@code duration}, or less when a stop is requested meanwhile. */
    public void pause(Duration duration) throws InterruptedException {
        stopRequested.await(duration.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Cuts short the loop's current or next {@link #pauseUnlessWoken}: a wake that arrives while the loop is busy
     * is kept until it next waits, so none is lost; several such wakes end one wait.
     */
    public void wake() {
        wakeLock.lock();
        try {
            woken = true;
            wakeSignal.signalAll();
        } finally {
            wakeLock.unlock();
        }
    }

    /** {@link #pause}, also ended by a {@link #wake()} since the last such wait. */
    public void pauseUnlessWoken(Duration duration) throws InterruptedException {
        long remaining = duration.toNanos();
        wakeLock.lock();
        try {
            while (!woken && !stopping() && remaining > 0) {
                remaining = wakeSignal.awaitNanos(remaining);
            }
            woken = false;
        } finally {
            wakeLock.unlock();
        }
    }

    private void signalWake() {
        wakeLock.lock();
        try {
            wakeSignal.signalAll();
        } finally {
            wakeLock.unlock();
        }
    }

    /** Waits up to {@code timeout} for the loop's thread to end; true when it has. */
    public boolean join(Duration timeout) throws InterruptedException {
        thread.join(Math.max(1, timeout.toMillis()));
        return !thread.isAlive();
    }

    /**
     * {@link #stop()}, then waits up to {@code timeout} for the thread to end (not when called on that thread);
     * an interrupt of the wait stays set for the caller.
     */
    public void stopAndJoin(Duration timeout) {
        stop();
        if (isCurrentThread()) {
            return;
        }
        try {
            join(timeout);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** True when called on the loop's own thread. */
    public boolean isCurrentThread() {
        return Thread.currentThread() == thread;
    }

    private void run() {
        try {
            while (!stopping()) {
                body.pass(this);
                if (Thread.currentThread().isInterrupted() && !stopping()) {
                    throw new InterruptedException("interrupt flag set after a pass");
                }
            }
        } catch (InterruptedException interrupted) {
            if (!stopping()) {
                owner.loopFailed(this, exited("was interrupted", interrupted));
            }
        } catch (SqlStreamsException coded) {
            owner.loopFailed(this, coded);
        } catch (RuntimeException | Error unexpected) {
            owner.loopFailed(this, exited("threw " + unexpected, unexpected));
        }
    }

    private SqlStreamsException exited(String how, Throwable cause) {
        return unrequestedExit(name, how, cause);
    }

    /**
     * The failure of a loop named {@code name} that ended {@code how} (was interrupted, threw) without a requested
     * stop: SQL0113. For loops that keep this policy on another kind of thread, such as a worker's scheduler.
     */
    public static SqlStreamsException unrequestedExit(String name, String how, Throwable cause) {
        return new SqlStreamsException(Code.SQL0113, "loop " + name + " " + how + " without a requested stop", cause);
    }
}
