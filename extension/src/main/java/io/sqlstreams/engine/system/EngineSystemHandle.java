package io.sqlstreams.engine.system;

import io.sqlstreams.AlertsHandle;
import io.sqlstreams.Code;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.MetricsHandle;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.SystemHandle;
import io.sqlstreams.SystemState;
import io.sqlstreams.engine.alert.AlertOwnerLookup;
import io.sqlstreams.engine.alert.EngineAlertsHandle;
import io.sqlstreams.engine.alert.StoredSystemConfig;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.manager.SystemWorkers;
import io.sqlstreams.engine.metrics.collector.EngineMetricsHandle;
import io.sqlstreams.engine.query.SystemQueries;
import io.sqlstreams.engine.query.WorkerQueries;
import io.sqlstreams.engine.schema.DdlScope;
import io.sqlstreams.engine.schema.SchemaMigrator;

/** The installation of one client's schema; every verb reads or writes it when called. */
public final class EngineSystemHandle implements SystemHandle {
    private final Engine engine;
    private final SystemWorkers systemWorkers;
    private final SystemQueries system;
    private final StoredSystemConfig storedConfig;

    public EngineSystemHandle(Engine engine) {
        this.engine = engine;
        this.systemWorkers = new SystemWorkers(engine.sql(), engine.diagnostics(), engine.declarer());
        this.system = new SystemQueries(engine.sql());
        this.storedConfig = new StoredSystemConfig(new WorkerQueries(engine.sql()));
    }

    @Override
    public void register(SystemConfig config) {
        SystemConfig declared = config == null ? SystemConfig.defaults() : config;
        declared.validate();
        long systemId = engine.migrator().ensureSystem();
        engine.database().inTransaction("registering the system in schema " + engine.sql().schema(), connection -> {
            systemWorkers.declare(connection, systemId, declared);
            return null;
        });
    }

    @Override
    public SystemState get() {
        SchemaMigrator.RecordedVersions versions = engine.migrator().recorded()
                .orElseThrow(() -> notInstalled(engine.sql().schema()));
        return engine.database().autoCommit("reading the system in schema " + engine.sql().schema(), connection -> {
            SystemQueries.SystemRow row = system.system(connection)
                    .orElseThrow(() -> notInstalled(engine.sql().schema()));
            SystemConfig config = storedConfig.read(connection, row.id());
            return new SystemState(row.id(), engine.sql().schema(), versions.system().version(),
                    versions.system().minCompatibleVersion(), config, row.createdAt(), row.streams(),
                    row.liveInstances());
        });
    }

    @Override
    public int migrate() {
        engine.migrator().ensureSystem();
        return DdlScope.SYSTEM.buildVersion();
    }

    @Override
    public int migrationVersion() {
        return engine.migrator().recorded().orElseThrow(() -> notInstalled(engine.sql().schema())).system().version();
    }

    @Override
    public void destroy(DestroyOptions options) {
        new InstallationRemoval(engine).destroy(options != null && options.force());
    }

    @Override
    public AlertsHandle alerts() {
        return new EngineAlertsHandle(engine, AlertOwnerLookup.system());
    }

    @Override
    public MetricsHandle metrics() {
        return new EngineMetricsHandle(engine);
    }

    static SqlStreamsException notInstalled(String schema) {
        return new SqlStreamsException(Code.SQL0017, "schema " + schema + " holds no sqlstreams installation:"
                + " register the system or a stream first");
    }
}
