package io.sqlstreams.engine.alert;

import java.time.Instant;

import io.sqlstreams.SystemConfig;

/**
 * What every evaluation of one check pass shares: the database's time, half its lock ceiling, the declared
 * policies, and {@code __system.metrics} where the evidence is (null while it does not exist).
 */
public record EvaluationContext(Instant evaluatedAt, long halfLockCeiling, SystemConfig config,
                                Long metricsStreamId) {
}
