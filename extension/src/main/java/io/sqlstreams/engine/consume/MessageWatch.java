package io.sqlstreams.engine.consume;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The timeout of one message that a thread runs in line with others: at the timeout the thread is interrupted, and
 * when the message has not finished a grace later, {@code abandon} runs on the timer's thread. The running thread
 * calls {@link #finished()} when the message ends; from then on neither fires, and an interrupt the timeout caused
 * is cleared so that the thread's next message starts clean.
 */
final class MessageWatch {
    private final Thread running;
    private final ScheduledExecutorService timer;
    private final Duration grace;
    private final Runnable abandon;
    private boolean timedOut;
    private boolean over;
    private boolean abandoned;
    private ScheduledFuture<?> pending;

    private MessageWatch(Thread running, ScheduledExecutorService timer, Duration grace, Runnable abandon) {
        this.running = running;
        this.timer = timer;
        this.grace = grace;
        this.abandon = abandon;
    }

    /** Watches a message the calling thread is about to run. */
    static MessageWatch start(ScheduledExecutorService timer, Duration timeout, Duration grace, Runnable abandon) {
        MessageWatch watch = new MessageWatch(Thread.currentThread(), timer, grace, abandon);
        synchronized (watch) {
            watch.pending = watch.schedule(watch::timeoutPassed, timeout);
        }
        return watch;
    }

    synchronized boolean timedOut() {
        return timedOut;
    }

    /** On the running thread when the message ended; false when it was abandoned meanwhile. */
    boolean finished() {
        synchronized (this) {
            if (abandoned) {
                return false;
            }
            over = true;
            if (pending != null) {
                pending.cancel(false);
            }
            if (!timedOut) {
                return true;
            }
        }
        Thread.interrupted();
        return true;
    }

    private void timeoutPassed() {
        synchronized (this) {
            if (over) {
                return;
            }
            timedOut = true;
            running.interrupt();
            pending = schedule(this::gracePassed, grace);
        }
    }

    /** Null once the session's timer has stopped: the message then runs unwatched, as the session is ending. */
    private ScheduledFuture<?> schedule(Runnable task, Duration after) {
        try {
            return timer.schedule(task, after.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopped) {
            return null;
        }
    }

    private void gracePassed() {
        synchronized (this) {
            if (over) {
                return;
            }
            over = true;
            abandoned = true;
        }
        abandon.run();
    }
}
