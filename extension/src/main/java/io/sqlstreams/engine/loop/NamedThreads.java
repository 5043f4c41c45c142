package io.sqlstreams.engine.loop;

import java.util.concurrent.ThreadFactory;

/** Threads of the host's factory, each named after the engine job it runs, so a thread dump says whose it is. */
public final class NamedThreads {
    private NamedThreads() {
    }

    /** A factory whose every thread (a single-thread executor has one at a time) is called {@code name}. */
    public static ThreadFactory of(ThreadFactory threads, String name) {
        return task -> {
            Thread thread = threads.newThread(task);
            thread.setName(name);
            return thread;
        };
    }
}
