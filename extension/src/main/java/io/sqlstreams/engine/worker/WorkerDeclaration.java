package io.sqlstreams.engine.worker;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.sql.Sql;
import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * Declares one worker row of an owner (a stream or a consumer group) with its configuration document.
 * Newest declaration wins: a new worker is inserted, a differing document replaces the stored one (logged as
 * SQL0059 naming {@code old -> new}) and keeps the worker's target so a suspension stays, an identical one
 * writes nothing. Every insert or replace appends a snapshot to {@code worker_config_log}.
 */
public final class WorkerDeclaration {
    private final WorkerQueries workers;
    private final Diagnostics diagnostics;
    private final String declarer;

    public WorkerDeclaration(Sql sql, Diagnostics diagnostics, String declarer) {
        this.workers = new WorkerQueries(sql);
        this.diagnostics = diagnostics;
        this.declarer = declarer;
    }

    /**
     * @param subject   how the owner reads in the SQL0059 line, for example {@code consumer group "x" on stream "y"}
     * @param newTarget the target a new worker starts with
     */
    public void declare(Connection connection, WorkerQueries.Owner owner, long ownerId, String subject, String worker,
                        JsonObject metadata, int newTarget) throws SQLException {
        Optional<WorkerQueries.Declared> declared = workers.find(connection, owner, ownerId, worker);
        long workerId;
        if (declared.isEmpty()) {
            workerId = workers.insert(connection, owner, ownerId, worker, metadata.toString(), newTarget);
        } else {
            JsonObject stored = Json.createReader(new StringReader(declared.get().metadata())).readObject();
            if (stored.equals(metadata)) {
                return;
            }
            workerId = declared.get().id();
            workers.replaceMetadata(connection, workerId, metadata.toString());
            diagnostics.event(Code.SQL0059, "worker " + worker + " of " + subject
                    + " config replaced by a differing declaration: metadata " + stored + " -> " + metadata);
        }
        workers.logSnapshot(connection, workerId, declarer);
    }
}
