package io.sqlstreams.engine;

import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * What the engine takes from its host besides the data source: a thread factory for long-lived loops, the
 * clock and the sleeper. In a server these are the managed thread factory and friends; in Java SE and tests
 * plain JDK objects.
 */
public record EngineEnvironment(ThreadFactory threadFactory, Clock clock, Sleeper sleeper) {

    public static EngineEnvironment standalone() {
        ThreadFactory base = Executors.defaultThreadFactory();
        ThreadFactory daemons = runnable -> {
            Thread thread = base.newThread(runnable);
            thread.setDaemon(true);
            thread.setName("sqlstreams-" + thread.getName());
            return thread;
        };
        return new EngineEnvironment(daemons, Clock.systemUTC(), Sleeper.SYSTEM);
    }
}
