package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/** Liveness rows of running workers ({@code worker_instance}): claim under the worker's target, renew, release. */
public final class InstanceQueries {
    /** A held row: its id and token. */
    public record Instance(long id, String token) {
    }

    /** A claim's answer: the row claimed, or none when the claim was declined, and the worker's target. */
    public record Claim(Optional<Instance> instance, int targetInstances) {
    }

    /** A renewal's answer: whether the row was still live with the token, and the worker's target (−1 when not). */
    public record Renewal(boolean renewed, int targetInstances) {
    }

    private final Sql sql;

    public InstanceQueries(Sql sql) {
        this.sql = sql;
    }

    /**
     * Claims a row of the worker while it is below its target, inside the caller's transaction (the worker row stays
     * locked until it ends); empty when the worker does not exist.
     */
    public Optional<Claim> claim(Connection connection, long workerId, Duration ttl) throws SQLException {
        try (BoundStatement lock = BoundStatement.prepare(connection, sql.statement("lock_worker_for_claim"))) {
            if (lock.bind("worker_id", workerId).queryOne(row -> row.getLong("id")).isEmpty()) {
                return Optional.empty();
            }
        }
        try (BoundStatement claim = BoundStatement.prepare(connection, sql.statement("claim_worker_instance"))) {
            return claim.bind("worker_id", workerId).bind("ttl_micros", Micros.of(ttl))
                    .queryOne(row -> {
                        String token = row.getString("token");
                        return new Claim(token == null ? Optional.empty()
                                : Optional.of(new Instance(row.getLong("id"), token)), row.getInt("target_instances"));
                    });
        }
    }

    /**
     * Extends an unexpired row held with {@code token} by {@code ttl} and stores the holder's failure streak, inside
     * the caller's transaction (the worker row stays share-locked until it ends, so no claim counts the instances
     * meanwhile).
     */
    public Renewal renew(Connection connection, Instance instance, Duration ttl, int attempts) throws SQLException {
        try (BoundStatement lock = BoundStatement.prepare(connection, sql.statement("lock_worker_for_renewal"))) {
            lock.bind("instance_id", instance.id()).queryOne(row -> row.getLong("id"));
        }
        try (BoundStatement renew = BoundStatement.prepare(connection, sql.statement("renew_worker_instance"))) {
            return renew.bind("ttl_micros", Micros.of(ttl)).bind("attempts", attempts)
                    .bind("instance_id", instance.id()).bind("token", instance.token())
                    .querySingle(row -> new Renewal(row.getLong("renewed") > 0, row.getInt("target_instances")));
        }
    }

    /** Stores the holder's failure streak on its row, if it is still held with its token. */
    public void recordAttempts(Connection connection, Instance instance, int attempts) throws SQLException {
        try (BoundStatement record = BoundStatement.prepare(connection,
                sql.statement("set_worker_instance_attempts"))) {
            record.bind("attempts", attempts).bind("instance_id", instance.id()).bind("token", instance.token())
                    .update();
        }
    }

    /** Deletes the row if it is still held with its token; how many rows went (0 or 1). */
    public int release(Connection connection, Instance instance) throws SQLException {
        try (BoundStatement release = BoundStatement.prepare(connection, sql.statement("release_worker_instance"))) {
            return release.bind("instance_id", instance.id()).bind("token", instance.token()).update();
        }
    }

    /** Deletes every expired row; how many. */
    public int sweepExpired(Connection connection) throws SQLException {
        try (BoundStatement sweep = BoundStatement.prepare(connection, sql.statement("sweep_expired_worker_instances"))) {
            return sweep.update();
        }
    }

    /** Deletes up to {@code batchSize} log rows whose recorded expiry is more than {@code logTtl} ago; how many. */
    public int sweepLog(Connection connection, Duration logTtl, int batchSize) throws SQLException {
        try (BoundStatement sweep = BoundStatement.prepare(connection, sql.statement("sweep_worker_instance_log"))) {
            return sweep.bind("log_ttl_micros", Micros.of(logTtl)).bind("batch_size", batchSize).update();
        }
    }
}
