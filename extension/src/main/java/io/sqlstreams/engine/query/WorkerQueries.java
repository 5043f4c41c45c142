package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import io.sqlstreams.Worker;
import io.sqlstreams.WorkerSnapshot;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/** Worker declarations: {@code worker_config} rows of the system, a stream or a consumer group, and their snapshots. */
public final class WorkerQueries {
    /** Whose worker: each owner kind has its own key column and statements. */
    public enum Owner {
        SYSTEM("system_id", "system_worker_metadata", "insert_system_worker"),
        STREAM("stream_id", "stream_worker_metadata", "insert_stream_worker"),
        CONSUMER_GROUP("consumer_group_id", "group_worker_metadata", "insert_group_worker");

        private final String column;
        private final String lookup;
        private final String insert;

        Owner(String column, String lookup, String insert) {
            this.column = column;
            this.lookup = lookup;
            this.insert = insert;
        }
    }

    /**
     * A worker the system manager may run: its row, and the stream that owns it (both null for a system worker).
     */
    public record FleetRow(long id, String name, Long streamId, String streamName, int targetInstances,
                           String metadata, int liveInstances) {
        /** Whether the worker allows another instance: its target is −1, or above its live instances. */
        public boolean wantsAnInstance() {
            return targetInstances == -1 || liveInstances < targetInstances;
        }
    }

    /** A declared worker's id and its stored configuration document (JSON text). */
    public record Declared(long id, String metadata) {
    }

    private final Sql sql;

    public WorkerQueries(Sql sql) {
        this.sql = sql;
    }

    public Optional<Declared> find(Connection connection, Owner owner, long ownerId, String name)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement(owner.lookup))) {
            return query.bind(owner.column, ownerId).bind("name", name)
                    .queryOne(row -> new Declared(row.getLong("id"), row.getString("metadata")));
        }
    }

    /** Inserts a new worker; its id. */
    public long insert(Connection connection, Owner owner, long ownerId, String name, String metadata,
                       int targetInstances) throws SQLException {
        try (BoundStatement insert = BoundStatement.prepare(connection, sql.statement(owner.insert))) {
            return insert.bind(owner.column, ownerId)
                    .bind("name", name)
                    .bind("metadata", metadata)
                    .bind("target_instances", targetInstances)
                    .querySingle(row -> row.getLong("id"));
        }
    }

    /** Replaces a worker's document and leaves its target alone. */
    public void replaceMetadata(Connection connection, long workerId, String metadata) throws SQLException {
        try (BoundStatement update = BoundStatement.prepare(connection, sql.statement("update_worker_metadata"))) {
            update.bind("metadata", metadata).bind("worker_id", workerId).update();
        }
    }

    /** Appends the worker's current row to {@code worker_config_log}. */
    public void logSnapshot(Connection connection, long workerId, String declaredBy) throws SQLException {
        try (BoundStatement log = BoundStatement.prepare(connection, sql.statement("log_worker_config"))) {
            log.bind("declared_by", declaredBy).bind("worker_id", workerId).update();
        }
    }

    /** Sets a worker's target; whether it changed (an equal target is left alone). */
    public boolean setTarget(Connection connection, long workerId, int targetInstances) throws SQLException {
        try (BoundStatement update = BoundStatement.prepare(connection, sql.statement("set_worker_target"))) {
            return update.bind("target_instances", targetInstances).bind("worker_id", workerId).update() > 0;
        }
    }

    /** A stream's worker as its rows stand now; empty when the stream has no worker of that name. */
    public Optional<WorkerSnapshot> streamWorkerSnapshot(Connection connection, long streamId, String name)
            throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("stream_worker_snapshot"))) {
            return query.bind("stream_id", streamId).bind("name", name).queryOne(row -> {
                long unclaimedMicros = row.getLong("unclaimed_micros");
                Optional<Duration> unclaimedFor = row.wasNull() ? Optional.empty()
                        : Optional.of(Duration.of(unclaimedMicros, ChronoUnit.MICROS));
                return WorkerSnapshot.of(row.getString("name"), row.getInt("target_instances"),
                        row.getInt("live_instances"), row.getInt("attempts"), unclaimedFor);
            });
        }
    }

    /** A consumer group's workers by name, each with its count of live instances. */
    public List<Worker> ofGroup(Connection connection, long groupId) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("group_workers"))) {
            return query.bind("consumer_group_id", groupId).queryList(row -> new Worker(row.getLong("id"),
                    row.getString("name"), row.getString("metadata"), row.getInt("target_instances"),
                    row.getInt("live_instances"), row.getTimestamp("created_at").toInstant(),
                    row.getTimestamp("updated_at").toInstant()));
        }
    }

    /** The system's workers and every stream's, by id. */
    public List<FleetRow> fleet(Connection connection) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection, sql.statement("fleet_workers"))) {
            return query.queryList(row -> {
                long streamId = row.getLong("stream_id");
                Long owningStream = row.wasNull() ? null : streamId;
                return new FleetRow(row.getLong("id"), row.getString("name"), owningStream,
                        row.getString("stream_name"), row.getInt("target_instances"), row.getString("metadata"),
                        row.getInt("live_instances"));
            });
        }
    }
}
