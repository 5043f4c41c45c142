package io.sqlstreams.engine.consume;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.UnaryOperator;

import io.sqlstreams.engine.EngineThreads;

/**
 * The executors a session creates when it begins, on the host's thread factory and named after the session: the
 * handlers' timeout timer, the key chains' retries and the recorder thread that commits ranges. The session
 * closes them together when it ends.
 */
final class SessionExecutors implements AutoCloseable {
    final ScheduledExecutorService timer;
    final ScheduledExecutorService keyRetries;
    final ExecutorService recorder;

    /** @param threadName the session's thread name for a role, such as {@code "timer"} */
    SessionExecutors(EngineThreads threads, UnaryOperator<String> threadName) {
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1,
                threads.named(threadName.apply("timer")));
        timers.setRemoveOnCancelPolicy(true);
        this.timer = timers;
        this.keyRetries = threads.scheduler(threadName.apply("keys"));
        this.recorder = threads.serial(threadName.apply("recorder"));
    }

    /** Stops all three at once; what they still hold is settled by the session or left to lease expiry. */
    @Override
    public void close() {
        List.of(timer, keyRetries, recorder).forEach(ExecutorService::shutdownNow);
    }
}
