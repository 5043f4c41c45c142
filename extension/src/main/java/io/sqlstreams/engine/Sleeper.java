package io.sqlstreams.engine;

import java.time.Duration;

/** How the engine waits, injected so tests can drive backoff without real sleeps. */
@FunctionalInterface
public interface Sleeper {
    Sleeper SYSTEM = duration -> {
        if (!duration.isNegative() && !duration.isZero()) {
            Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
        }
    };

    void sleep(Duration duration) throws InterruptedException;
}
