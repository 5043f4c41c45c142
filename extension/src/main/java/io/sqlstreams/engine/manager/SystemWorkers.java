package io.sqlstreams.engine.manager;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import io.sqlstreams.SystemConfig;
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
 * The system's own workers: {@code manager} (target 1; its document holds the {@link SystemConfig}) and
 * {@code consumer_group_janitor} (target 1). An explicit registration replaces a differing document and keeps the
 * targets, so a suspension stays; a process that only needs the rows inserts the missing ones with defaults.
 */
public final class SystemWorkers {
    public static final String MANAGER = "manager";
    public static final String CONSUMER_GROUP_JANITOR = "consumer_group_janitor";

    private static final String SUBJECT = "the system";

    private final WorkerDeclaration workers;

    public SystemWorkers(Sql sql, Diagnostics diagnostics, String declarer) {
        this.workers = new WorkerDeclaration(sql, diagnostics, declarer);
    }

    /** Writes the system's worker rows from {@code config} (validated by the caller), newest declaration winning. */
    public void declare(Connection connection, long systemId, SystemConfig config) throws SQLException {
        workers.declareEach(connection, WorkerQueries.Owner.SYSTEM, systemId, SUBJECT, rows(config));
    }

    /** Inserts the system's worker rows that are missing, with the default settings; leaves present ones alone. */
    public void ensure(Connection connection, long systemId) throws SQLException {
        workers.declareMissing(connection, WorkerQueries.Owner.SYSTEM, systemId, rows(SystemConfig.defaults()));
    }

    /**
     * The settings the {@code manager} row's document holds; unknown keys are ignored, a malformed known one is
     * SQL0108 naming it.
     */
    public static SystemConfig systemConfig(String managerMetadata) {
        JsonObject document = DocumentFields.object("metadata", managerMetadata);
        return new SystemConfig(DocumentFields.duration(document, "poll_rate", "poll_rate"));
    }

    private static List<WorkerDeclaration.Row> rows(SystemConfig config) {
        JsonObjectBuilder manager = Json.createObjectBuilder();
        if (config.managerPollRate() != null) {
            manager.add("poll_rate", DurationText.formatStorable("managerPollRate", config.managerPollRate()));
        }
        return List.of(new WorkerDeclaration.Row(MANAGER, manager.build(), 1),
                new WorkerDeclaration.Row(CONSUMER_GROUP_JANITOR, JsonObject.EMPTY_JSON_OBJECT, 1));
    }
}
