package io.sqlstreams.engine.stream;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import io.sqlstreams.JanitorConfig;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.VacuumConfig;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.codec.DocumentFields;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.worker.WorkerDeclaration;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * Declares a stream's own workers, {@code stream_janitor} (active on a new stream) and {@code stream_vacuum}
 * (suspended on a new stream), with their settings as sparse metadata documents, and reads a stored document
 * back. A redeclaration replaces a differing document (newest wins, one SQL0059 line naming what changed) and
 * keeps the worker's target, so a suspension stays.
 */
public final class StreamWorkers {
    public static final String JANITOR = "stream_janitor";
    public static final String VACUUM = "stream_vacuum";

    private final WorkerDeclaration workers;

    StreamWorkers(Sql sql, Diagnostics diagnostics, String declarer) {
        this.workers = new WorkerDeclaration(sql, diagnostics, declarer);
    }

    void declare(Connection connection, long streamId, String streamName, StreamConfig config) throws SQLException {
        String subject = "stream \"" + streamName + "\"";
        workers.declareEach(connection, WorkerQueries.Owner.STREAM, streamId, subject, List.of(
                new WorkerDeclaration.Row(JANITOR, janitorDocument(config.resolvedJanitor()), 1),
                new WorkerDeclaration.Row(VACUUM, vacuumDocument(config.resolvedVacuum()), 0)));
    }

    static JsonObject janitorDocument(JanitorConfig janitor) {
        JsonObjectBuilder document = Json.createObjectBuilder();
        putDuration(document, "poll_rate", "janitor.pollRate", janitor.pollRate());
        if (janitor.sweepBatchSize() != null) {
            document.add("sweep_batch_size", janitor.sweepBatchSize());
        }
        putDuration(document, "cleanup_timeout", "janitor.cleanupTimeout", janitor.cleanupTimeout());
        putDuration(document, "partial_sweep_grace_period", "janitor.partialSweepGracePeriod",
                janitor.partialSweepGracePeriod());
        return document.build();
    }

    static JsonObject vacuumDocument(VacuumConfig vacuum) {
        JsonObjectBuilder document = Json.createObjectBuilder();
        putDuration(document, "poll_rate", "vacuum.pollRate", vacuum.pollRate());
        putDuration(document, "vacuum_timeout", "vacuum.vacuumTimeout", vacuum.vacuumTimeout());
        return document.build();
    }

    /**
     * The janitor settings a stored document holds; unknown keys are ignored (a newer library version may have
     * written them), a known key with a malformed value fails with SQL0108 naming it.
     */
    public static JanitorConfig janitorConfig(String metadata) {
        JsonObject document = DocumentFields.object("metadata", metadata);
        return new JanitorConfig(DocumentFields.duration(document, "poll_rate", "poll_rate"),
                DocumentFields.integer(document, "sweep_batch_size", "sweep_batch_size"),
                DocumentFields.duration(document, "cleanup_timeout", "cleanup_timeout"),
                DocumentFields.duration(document, "partial_sweep_grace_period", "partial_sweep_grace_period"));
    }

    /** The vacuum settings a stored document holds, read as {@link #janitorConfig} reads the janitor's. */
    public static VacuumConfig vacuumConfig(String metadata) {
        JsonObject document = DocumentFields.object("metadata", metadata);
        return new VacuumConfig(DocumentFields.duration(document, "poll_rate", "poll_rate"),
                DocumentFields.duration(document, "vacuum_timeout", "vacuum_timeout"));
    }

    /** The janitor's settings as its start line reports them, defaults resolved, under the document's keys. */
    public static String describe(JanitorConfig janitor) {
        return "poll_rate " + DurationText.format(janitor.resolvedPollRate())
                + ", sweep_batch_size " + janitor.resolvedSweepBatchSize()
                + ", cleanup_timeout " + DurationText.format(janitor.resolvedCleanupTimeout())
                + ", partial_sweep_grace_period " + DurationText.format(janitor.resolvedPartialSweepGracePeriod());
    }

    /** The vacuum's settings as its start line reports them, defaults resolved, under the document's keys. */
    public static String describe(VacuumConfig vacuum) {
        return "poll_rate " + DurationText.format(vacuum.resolvedPollRate())
                + ", vacuum_timeout " + DurationText.format(vacuum.resolvedVacuumTimeout());
    }

    private static void putDuration(JsonObjectBuilder document, String key, String property, Duration value) {
        if (value != null) {
            document.add(key, DurationText.formatStorable(property, value));
        }
    }
}
