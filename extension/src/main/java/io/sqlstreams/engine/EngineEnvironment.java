package io.sqlstreams.engine;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * What the engine takes from its host besides the data source: a thread factory for long-lived loops, an
 * executor for handler calls, the clock and the sleeper. In a server these are the managed thread factory
 * and managed executor; in Java SE and tests plain JDK objects.
 */
public record EngineEnvironment(ThreadFactory threadFactory, ExecutorService handlerExecutor, Clock clock,
                                Sleeper sleeper) {

    /** The engine's threads, every one from {@link #threadFactory}. */
    public EngineThreads threads() {
        return new EngineThreads(threadFactory);
    }

    /** Daemon threads, an unbounded handler pool (sessions bound it with their own permits), the system clock. */
    public static EngineEnvironment standalone() {
        return new EngineEnvironment(EngineThreads.daemons("sqlstreams-"),
                Executors.newCachedThreadPool(EngineThreads.daemons("sqlstreams-handler-")), Clock.systemUTC(),
                Sleeper.SYSTEM);
    }
}
