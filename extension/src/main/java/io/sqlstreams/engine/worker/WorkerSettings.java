package io.sqlstreams.engine.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidConfigurationException.Violation;
import io.sqlstreams.RetryPolicy;

/**
 * How one worker instance runs: ticks every {@code pollRate} × (1 ± {@code jitterFraction}), heartbeats every
 * {@code instanceTtl}/2, and backs off after failed ticks on the {@code retry} curve.
 */
public record WorkerSettings(Duration pollRate, Duration instanceTtl, double jitterFraction, RetryPolicy retry) {
    public static final Duration DEFAULT_INSTANCE_TTL = Duration.ofSeconds(30);
    public static final double DEFAULT_JITTER_FRACTION = 0.1;

    /** The defaults around a worker's own poll rate: InstanceTTL 30s, jitter 0.1, the client's retry curve. */
    public static WorkerSettings of(Duration pollRate) {
        return new WorkerSettings(pollRate, DEFAULT_INSTANCE_TTL, DEFAULT_JITTER_FRACTION,
                RetryPolicy.clientDefaults());
    }

    public WorkerSettings withPollRate(Duration rate) {
        return new WorkerSettings(rate, instanceTtl, jitterFraction, retry);
    }

    public WorkerSettings withInstanceTtl(Duration ttl) {
        return new WorkerSettings(pollRate, ttl, jitterFraction, retry);
    }

    public WorkerSettings withJitterFraction(double fraction) {
        return new WorkerSettings(pollRate, instanceTtl, fraction, retry);
    }

    public WorkerSettings withRetry(RetryPolicy policy) {
        return new WorkerSettings(pollRate, instanceTtl, jitterFraction, policy);
    }

    /** How often the instance row is renewed: half the InstanceTTL. */
    public Duration heartbeatPeriod() {
        return instanceTtl.dividedBy(2);
    }

    /** The settings with the retry curve's unset fields defaulted; SQL0108 listing every broken rule. */
    public WorkerSettings validated() {
        List<Violation> violations = new ArrayList<>();
        if (pollRate == null || pollRate.isNegative() || pollRate.isZero()) {
            violations.add(new Violation("worker.pollRate", pollRate, "must be positive"));
        }
        if (instanceTtl == null || instanceTtl.toMillis() < 2) {
            violations.add(new Violation("worker.instanceTtl", instanceTtl, "must be at least 2ms"));
        }
        if (!(jitterFraction >= 0 && jitterFraction < 1)) {
            violations.add(new Violation("worker.jitterFraction", jitterFraction, "must be at least 0 and below 1"));
        }
        RetryPolicy curve = RetryPolicy.withDefaults(retry);
        try {
            curve.validate();
        } catch (InvalidConfigurationException broken) {
            broken.violations().forEach(violation -> violations.add(new Violation("worker." + violation.property(),
                    violation.value(), violation.rule())));
        }
        if (!violations.isEmpty()) {
            throw new InvalidConfigurationException(violations);
        }
        return new WorkerSettings(pollRate, instanceTtl, jitterFraction, curve);
    }
}
