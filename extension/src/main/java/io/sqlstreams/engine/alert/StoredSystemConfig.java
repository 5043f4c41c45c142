package io.sqlstreams.engine.alert;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.codec.DocumentFields;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.worker.SystemWorkerNames;

/**
 * The installation's {@link SystemConfig} as the system's worker rows hold it: the {@code manager} and
 * {@code metrics_collector} documents their poll rates, the {@code alert_checks} document the alert policies.
 * Unknown keys are ignored; a malformed known one is SQL0108 naming it.
 */
public final class StoredSystemConfig {
    private final WorkerQueries workers;

    public StoredSystemConfig(WorkerQueries workers) {
        this.workers = workers;
    }

    public SystemConfig read(Connection connection, long systemId) throws SQLException {
        SystemConfig rates = new SystemConfig(
                pollRate(metadata(connection, systemId, SystemWorkerNames.MANAGER)),
                pollRate(metadata(connection, systemId, SystemWorkerNames.METRICS_COLLECTOR)));
        return AlertPolicies.read(rates, metadata(connection, systemId, SystemWorkerNames.ALERT_CHECKS));
    }

    /** The {@code poll_rate} a system worker's document holds; null when it holds none or is null. */
    public static Duration pollRate(String metadata) {
        if (metadata == null) {
            return null;
        }
        return DocumentFields.duration(DocumentFields.object("metadata", metadata), "poll_rate", "poll_rate");
    }

    private String metadata(Connection connection, long systemId, String worker) throws SQLException {
        return workers.find(connection, WorkerQueries.Owner.SYSTEM, systemId, worker)
                .map(WorkerQueries.Declared::metadata).orElse(null);
    }
}
