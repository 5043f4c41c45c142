package io.sqlstreams.engine.alert;

import java.util.List;
import java.util.Optional;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertHandle;
import io.sqlstreams.AlertsHandle;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.SystemStreams;
import io.sqlstreams.engine.query.AlertQueries;
import io.sqlstreams.engine.query.StreamQueries;

/** The alerts of one owner as {@code __system.alerts} holds them; each verb reads in one autocommit unit. */
public final class EngineAlertsHandle implements AlertsHandle {
    private final Engine engine;
    private final AlertOwnerLookup owner;
    private final StreamQueries streams;
    private final AlertQueries alerts;

    public EngineAlertsHandle(Engine engine, AlertOwnerLookup owner) {
        this.engine = engine;
        this.owner = owner;
        this.streams = new StreamQueries(engine.sql());
        this.alerts = new AlertQueries(engine.sql());
    }

    @Override
    public List<Alert> list() {
        boolean installed = engine.migrator().installed();
        owner.checkBeforeReading(installed);
        if (!installed) {
            return List.of();
        }
        return engine.database().autoCommit("listing alerts", connection -> {
            String ownerKey = AlertKeys.owner(owner.find(connection));
            Optional<Stream> stream = streams.find(connection, SystemStreams.ALERTS);
            if (stream.isEmpty()) {
                return List.<Alert>of();
            }
            return alerts.ownerHeads(connection, stream.get().id(), ownerKey).stream()
                    .map(head -> engine.codec().decode(head.payload(), AlertDocument.class).toAlert()).toList();
        });
    }

    @Override
    public AlertHandle alert(String name) {
        return new EngineAlertHandle(engine, owner, name);
    }
}
