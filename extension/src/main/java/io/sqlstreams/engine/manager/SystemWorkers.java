package io.sqlstreams.engine.manager;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.alert.AlertPolicies;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.worker.SystemWorkerNames;
import io.sqlstreams.engine.worker.WorkerDeclaration;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The system's own workers, each target 1: {@code manager} (its document holds the manager's poll rate),
 * {@code consumer_group_janitor}, {@code metrics_collector} (its document holds the collector's poll rate) and
 * {@code alert_checks} (its document holds the alert policies) and {@code schedule_producer}. An explicit registration replaces a differing
 * document and keeps the targets, so a suspension stays; a process that only needs the rows inserts the missing
 * ones with defaults.
 */
public final class SystemWorkers {
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

    private static List<WorkerDeclaration.Row> rows(SystemConfig config) {
        return List.of(
                new WorkerDeclaration.Row(SystemWorkerNames.MANAGER,
                        pollRateDocument("managerPollRate", config.managerPollRate()), 1),
                new WorkerDeclaration.Row(SystemWorkerNames.CONSUMER_GROUP_JANITOR, JsonObject.EMPTY_JSON_OBJECT, 1),
                new WorkerDeclaration.Row(SystemWorkerNames.METRICS_COLLECTOR,
                        pollRateDocument("metricCollectorPollRate", config.metricCollectorPollRate()), 1),
                new WorkerDeclaration.Row(SystemWorkerNames.ALERT_CHECKS, AlertPolicies.document(config), 1),
                new WorkerDeclaration.Row(SystemWorkerNames.SCHEDULE_PRODUCER, JsonObject.EMPTY_JSON_OBJECT, 1));
    }

    private static JsonObject pollRateDocument(String property, Duration pollRate) {
        JsonObjectBuilder document = Json.createObjectBuilder();
        if (pollRate != null) {
            document.add("poll_rate", DurationText.formatStorable(property, pollRate));
        }
        return document.build();
    }
}
