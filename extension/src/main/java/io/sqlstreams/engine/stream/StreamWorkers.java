package io.sqlstreams.engine.stream;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

import io.sqlstreams.Code;
import io.sqlstreams.JanitorConfig;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.VacuumConfig;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.sql.Sql;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * Declares a stream's own workers, {@code stream_janitor} (active on a new stream) and {@code stream_vacuum}
 * (suspended on a new stream), with their settings as sparse metadata documents. A redeclaration replaces a
 * differing document (newest wins, logged as SQL0059) and keeps the worker's target, so a suspension stays.
 */
final class StreamWorkers {
    static final String JANITOR = "stream_janitor";
    static final String VACUUM = "stream_vacuum";

    private final Sql sql;
    private final Diagnostics diagnostics;
    private final String declarer;

    StreamWorkers(Sql sql, Diagnostics diagnostics, String declarer) {
        this.sql = sql;
        this.diagnostics = diagnostics;
        this.declarer = declarer;
    }

    void declare(Connection connection, long streamId, String streamName, StreamConfig config) throws SQLException {
        declare(connection, streamId, streamName, JANITOR, janitorDocument(config.resolvedJanitor()), 1);
        declare(connection, streamId, streamName, VACUUM, vacuumDocument(config.resolvedVacuum()), 0);
    }

    private void declare(Connection connection, long streamId, String streamName, String worker, JsonObject metadata,
                         int newTarget) throws SQLException {
        Long workerId = null;
        JsonObject stored = null;
        try (PreparedStatement query = connection.prepareStatement(sql.get("stream_worker_metadata"))) {
            query.setLong(1, streamId);
            query.setString(2, worker);
            try (ResultSet row = query.executeQuery()) {
                if (row.next()) {
                    workerId = row.getLong(1);
                    stored = Json.createReader(new StringReader(row.getString(2))).readObject();
                }
            }
        }
        if (workerId == null) {
            workerId = insert(connection, streamId, worker, metadata, newTarget);
        } else if (!stored.equals(metadata)) {
            try (PreparedStatement update = connection.prepareStatement(sql.get("update_worker_metadata"))) {
                update.setString(1, metadata.toString());
                update.setLong(2, workerId);
                update.executeUpdate();
            }
            diagnostics.event(Code.SQL0059, "worker " + worker + " of stream \"" + streamName
                    + "\" config replaced by a differing declaration: metadata " + stored + " -> " + metadata);
        } else {
            return;
        }
        try (PreparedStatement log = connection.prepareStatement(sql.get("log_worker_config"))) {
            log.setString(1, declarer);
            log.setLong(2, workerId);
            log.executeUpdate();
        }
    }

    private long insert(Connection connection, long streamId, String worker, JsonObject metadata, int target)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(sql.get("insert_stream_worker"))) {
            insert.setLong(1, streamId);
            insert.setString(2, worker);
            insert.setString(3, metadata.toString());
            insert.setInt(4, target);
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    static JsonObject janitorDocument(JanitorConfig janitor) {
        JsonObjectBuilder document = Json.createObjectBuilder();
        putDuration(document, "poll_rate", janitor.pollRate());
        if (janitor.sweepBatchSize() != null) {
            document.add("sweep_batch_size", janitor.sweepBatchSize());
        }
        putDuration(document, "cleanup_timeout", janitor.cleanupTimeout());
        putDuration(document, "partial_sweep_grace_period", janitor.partialSweepGracePeriod());
        return document.build();
    }

    static JsonObject vacuumDocument(VacuumConfig vacuum) {
        JsonObjectBuilder document = Json.createObjectBuilder();
        putDuration(document, "poll_rate", vacuum.pollRate());
        putDuration(document, "vacuum_timeout", vacuum.vacuumTimeout());
        return document.build();
    }

    private static void putDuration(JsonObjectBuilder document, String key, Duration value) {
        if (value != null) {
            document.add(key, DurationText.format(value));
        }
    }
}
