package io.sqlstreams.engine.stream;

import java.sql.Connection;
import java.sql.SQLException;

import io.sqlstreams.Code;
import io.sqlstreams.MaintenanceHandle;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.WorkerSnapshot;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.query.WorkerQueries;

/**
 * One of a stream's own workers by name, for an operator: its snapshot, and its target switched between 0 and 1.
 * A switch and the snapshot it answers are one transaction, and a switch that changes the target appends a
 * {@code worker_config_log} snapshot in it.
 */
final class StreamMaintenanceHandle implements MaintenanceHandle {
    private static final int SUSPENDED = 0;
    private static final int ACTIVE = 1;

    private final Engine engine;
    private final String stream;
    private final String worker;
    private final StreamQueries streams;
    private final WorkerQueries workers;

    StreamMaintenanceHandle(Engine engine, String stream, String worker) {
        this.engine = engine;
        this.stream = stream;
        this.worker = worker;
        this.streams = new StreamQueries(engine.sql());
        this.workers = new WorkerQueries(engine.sql());
    }

    @Override
    public String worker() {
        return worker;
    }

    @Override
    public WorkerSnapshot suspend() {
        return setTarget("suspending", SUSPENDED);
    }

    @Override
    public WorkerSnapshot unsuspend() {
        return setTarget("unsuspending", ACTIVE);
    }

    @Override
    public WorkerSnapshot status() {
        requireInstalled();
        return engine.database().autoCommit("reading " + subject(), connection ->
                snapshot(connection, streams.require(connection, stream)));
    }

    private WorkerSnapshot setTarget(String verb, int target) {
        requireInstalled();
        return engine.database().inTransaction(verb + " " + subject(), connection -> {
            Stream row = streams.require(connection, stream);
            long workerId = workers.find(connection, WorkerQueries.Owner.STREAM, row.id(), worker)
                    .orElseThrow(this::notFound).id();
            if (workers.setTarget(connection, workerId, target)) {
                workers.logSnapshot(connection, workerId, engine.declarer());
            }
            return snapshot(connection, row);
        });
    }

    private WorkerSnapshot snapshot(Connection connection, Stream row) throws SQLException {
        return workers.streamWorkerSnapshot(connection, row.id(), worker).orElseThrow(this::notFound);
    }

    private void requireInstalled() {
        Names.resource("stream", stream);
        if (!engine.migrator().installed()) {
            throw StreamQueries.notFound(stream);
        }
    }

    private SqlStreamsException notFound() {
        return new SqlStreamsException(Code.SQL0106, subject() + " has no worker row; registering the stream again"
                + " declares it");
    }

    private String subject() {
        return "worker " + worker + " of stream " + Quoting.quote(stream);
    }
}
