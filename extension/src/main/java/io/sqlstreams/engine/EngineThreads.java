package io.sqlstreams.engine;

import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * The one way the library makes a thread: every thread comes from the host's factory (the server's managed thread
 * factory, daemons in Java SE) and is named after the job it runs, so a thread dump says whose it is.
 */
public final class EngineThreads {
    private final ThreadFactory host;

    public EngineThreads(ThreadFactory host) {
        this.host = Objects.requireNonNull(host, "host");
    }

    /** The engine's threads in Java SE and the CLI: daemons of the JDK's default factory. */
    public static EngineThreads standalone() {
        return new EngineThreads(daemons("sqlstreams-"));
    }

    /** Daemon threads of the JDK's default factory, named {@code prefix} + the JDK's name: Java SE's host factory. */
    public static ThreadFactory daemons(String prefix) {
        ThreadFactory base = Executors.defaultThreadFactory();
        return runnable -> {
            Thread thread = base.newThread(runnable);
            thread.setDaemon(true);
            thread.setName(prefix + thread.getName());
            return thread;
        };
    }

    /** An unstarted thread of the host named {@code name}; a host that refuses one is an IllegalStateException. */
    public Thread thread(String name, Runnable body) {
        Thread thread = host.newThread(body);
        if (thread == null) {
            throw new IllegalStateException("the host's thread factory refused thread " + name);
        }
        thread.setName(name);
        return thread;
    }

    /**
     * Like {@link #thread}, but where the host refuses (a server no longer hands out threads to an application it
     * stops) a daemon thread of the JDK's: for a stop that must neither fail nor run on its caller's thread.
     */
    public Thread threadEvenWhenStopping(String name, Runnable body) {
        try {
            return thread(name, body);
        } catch (RuntimeException refused) {
            return standalone().thread(name, body);
        }
    }

    /** A factory whose every thread (an executor of one thread has one at a time) is called {@code name}. */
    public ThreadFactory named(String name) {
        return body -> thread(name, body);
    }

    /** One thread, named {@code name}, that runs what it is given in order. */
    public ExecutorService serial(String name) {
        return Executors.newSingleThreadExecutor(named(name));
    }

    /** One thread, named {@code name}, that runs what it is given at its time. */
    public ScheduledExecutorService scheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(named(name));
    }
}
