package io.sqlstreams.engine.alert;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertEvaluationSnapshot;
import io.sqlstreams.AlertHandle;
import io.sqlstreams.AlertOwner;
import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.SystemStreams;
import io.sqlstreams.engine.query.KeyQueries;
import io.sqlstreams.engine.query.StreamQueries;

/** One alert of one owner: its reports on {@code __system.alerts}, and an evaluation of its evidence now. */
final class EngineAlertHandle implements AlertHandle {
    private final Engine engine;
    private final AlertOwnerLookup owner;
    private final String name;
    private final StreamQueries streams;
    private final KeyQueries keys;

    EngineAlertHandle(Engine engine, AlertOwnerLookup owner, String name) {
        this.engine = engine;
        this.owner = owner;
        this.name = name;
        this.streams = new StreamQueries(engine.sql());
        this.keys = new KeyQueries(engine.sql());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Optional<Alert> latest() {
        return reports(1).stream().findFirst();
    }

    @Override
    public List<Alert> history(int limit) {
        if (limit < 1) {
            throw invalid("limit", limit, "must be positive");
        }
        return reports(limit);
    }

    @Override
    public AlertEvaluationSnapshot snapshot() {
        checkName();
        BuiltInAlert alert = BuiltInAlert.named(name).filter(found -> found.ownerKind() == owner.kind())
                .orElseThrow(() -> invalid("name", name, "must name a built-in alert of a "
                        + owner.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')));
        boolean installed = engine.migrator().installed();
        owner.checkBeforeReading(installed);
        if (!installed) {
            throw new SqlStreamsException(Code.SQL0017, "schema " + engine.sql().schema()
                    + " holds no sqlstreams installation: there is nothing to evaluate");
        }
        AlertEvaluator evaluator = new AlertEvaluator(engine);
        return engine.database().autoCommit("evaluating alert " + name, connection -> {
            AlertOwner found = owner.find(connection);
            EvaluationContext context = evaluator.context(connection);
            return alert == BuiltInAlert.METRICS_COLLECTOR_PROGRESS
                    ? evaluator.collectorProgress(connection, context).snapshot()
                    : evaluator.stream(connection, context, alert, found, false).snapshot();
        });
    }

    private List<Alert> reports(int limit) {
        checkName();
        boolean installed = engine.migrator().installed();
        owner.checkBeforeReading(installed);
        if (!installed) {
            return List.of();
        }
        return engine.database().autoCommit("reading alert " + name, connection -> read(connection, limit));
    }

    private List<Alert> read(Connection connection, int limit) throws SQLException {
        String key = AlertKeys.alert(name, owner.find(connection));
        Optional<Stream> stream = streams.find(connection, SystemStreams.ALERTS);
        if (stream.isEmpty()) {
            return List.of();
        }
        return keys.messages(connection, stream.get().id(), key, limit).stream()
                .map(message -> engine.codec().decode(message.payload(), AlertDocument.class).toAlert()).toList();
    }

    private void checkName() {
        if (name == null || name.isBlank()) {
            throw invalid("name", name, "must name an alert");
        }
    }

    private static InvalidConfigurationException invalid(String property, Object value, String rule) {
        return new InvalidConfigurationException(List.of(
                new InvalidConfigurationException.Violation(property, value, rule)));
    }
}
