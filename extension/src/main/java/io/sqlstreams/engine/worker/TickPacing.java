package io.sqlstreams.engine.worker;

import java.time.Duration;
import java.util.random.RandomGenerator;

import io.sqlstreams.RetryPolicy;

/**
 * When a worker's next tick falls due: after a success, the poll rate jittered by ± the jitter fraction so that
 * instances of many processes spread out; after the n-th failure in a row, the retry curve's delay for attempt
 * n − 1, until the curve's maxRetries attempts are spent and every further tick waits the curve's cap.
 */
public final class TickPacing {
    private final Duration pollRate;
    private final double jitterFraction;
    private final RetryPolicy curve;
    private final RandomGenerator random;

    public TickPacing(WorkerSettings settings, RandomGenerator random) {
        this.pollRate = settings.pollRate();
        this.jitterFraction = settings.jitterFraction();
        this.curve = settings.retry();
        this.random = random;
    }

    public Duration afterSuccess() {
        double factor = 1 + jitterFraction * (2 * random.nextDouble() - 1);
        return Duration.ofNanos(Math.round(pollRate.toNanos() * factor));
    }

    public Duration afterFailure(int streak) {
        return exhausted(streak) ? curve.maxDelay() : curve.calculateDelay(streak - 1);
    }

    /** True once {@code streak} failures in a row have spent the curve's attempts. */
    boolean exhausted(int streak) {
        return streak >= curve.maxRetries();
    }
}
