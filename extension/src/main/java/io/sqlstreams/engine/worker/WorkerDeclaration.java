package io.sqlstreams.engine.worker;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.sqlstreams.Code;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.codec.DocumentDiff;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.sql.Sql;
import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * Declares the worker rows of an owner (a stream or a consumer group) with their configuration documents.
 * Newest declaration wins: a new worker is inserted, a differing document replaces the stored one and keeps the
 * worker's target so a suspension stays, an identical one writes nothing. Every insert or replace appends a
 * snapshot to {@code worker_config_log}. One declaration that replaced anything logs one SQL0059 line naming
 * the owner and only the changed paths.
 */
public final class WorkerDeclaration {
    private final WorkerQueries workers;
    private final Diagnostics diagnostics;
    private final String declarer;

    /** One worker row of a declaration: its name, its document and the target a new worker starts with. */
    public record Row(String worker, JsonObject metadata, int newTarget) {
    }

    public WorkerDeclaration(Sql sql, Diagnostics diagnostics, String declarer) {
        this.workers = new WorkerQueries(sql);
        this.diagnostics = diagnostics;
        this.declarer = declarer;
    }

    /**
     * Writes one document to several rows, as a consumer group does: the changes are named by their paths in
     * the document ({@code message.retry.max_retries 3 -> 5}), each once however many rows it replaced.
     *
     * @param subject how the owner reads in the SQL0059 line, for example {@code consumer group "x" on stream "y"}
     */
    public void declareShared(Connection connection, WorkerQueries.Owner owner, long ownerId, String subject,
                              List<String> workerNames, JsonObject metadata, int newTarget) throws SQLException {
        Set<String> changes = new LinkedHashSet<>();
        for (String worker : workerNames) {
            declare(connection, owner, ownerId, new Row(worker, metadata, newTarget))
                    .forEach(change -> changes.add(change.toString()));
        }
        logReplaced(subject, changes);
    }

    /**
     * Writes each row its own document, as a stream does for its workers: the changes are named by the worker
     * and the path in its document ({@code stream_janitor.poll_rate 1m0s -> 10s}).
     */
    public void declareEach(Connection connection, WorkerQueries.Owner owner, long ownerId, String subject,
                            List<Row> rows) throws SQLException {
        Set<String> changes = new LinkedHashSet<>();
        for (Row row : rows) {
            declare(connection, owner, ownerId, row).forEach(change -> changes.add(row.worker() + "." + change));
        }
        logReplaced(subject, changes);
    }

    /**
     * Inserts the rows that do not exist and leaves the others as they are, as a process that only needs the rows
     * to exist does (a consume session starting the system manager): it never undoes an explicit declaration.
     */
    public void declareMissing(Connection connection, WorkerQueries.Owner owner, long ownerId, List<Row> rows)
            throws SQLException {
        for (Row row : rows) {
            if (workers.find(connection, owner, ownerId, row.worker()).isEmpty()) {
                long workerId = workers.insert(connection, owner, ownerId, row.worker(), row.metadata().toString(),
                        row.newTarget());
                workers.logSnapshot(connection, workerId, declarer);
            }
        }
    }

    /** Inserts or replaces one row; what its stored document changed, nothing for a new or identical one. */
    private List<DocumentDiff.Change> declare(Connection connection, WorkerQueries.Owner owner, long ownerId,
                                              Row row) throws SQLException {
        Optional<WorkerQueries.Declared> declared = workers.find(connection, owner, ownerId, row.worker());
        if (declared.isEmpty()) {
            long workerId = workers.insert(connection, owner, ownerId, row.worker(), row.metadata().toString(),
                    row.newTarget());
            workers.logSnapshot(connection, workerId, declarer);
            return List.of();
        }
        JsonObject stored = Json.createReader(new StringReader(declared.get().metadata())).readObject();
        List<DocumentDiff.Change> changes = DocumentDiff.between(stored, row.metadata());
        if (!changes.isEmpty()) {
            workers.replaceMetadata(connection, declared.get().id(), row.metadata().toString());
            workers.logSnapshot(connection, declared.get().id(), declarer);
        }
        return changes;
    }

    private void logReplaced(String subject, Set<String> changes) {
        if (!changes.isEmpty()) {
            diagnostics.event(Code.SQL0059, subject + " worker config replaced by a differing declaration: "
                    + String.join("; ", changes));
        }
    }
}
