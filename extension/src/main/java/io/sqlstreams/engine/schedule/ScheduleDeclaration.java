package io.sqlstreams.engine.schedule;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.sqlstreams.Code;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.SchedulerConfig;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ScheduleQueries;
import io.sqlstreams.engine.query.ScheduleQueries.Declaration;
import io.sqlstreams.engine.query.ScheduleQueries.Stored;
import io.sqlstreams.engine.query.StreamQueries;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

/**
 * A schedule's {@code register}: everything is checked before the database is touched (the name, the config, the
 * payload's encoding and schema version, the expression), then one transaction stores the declaration, newest
 * winning (a differing one logs SQL0062 with what changed), and seeds the next due time from the database's clock
 * when the schedule is new or its expression changed.
 */
final class ScheduleDeclaration {
    private final Engine engine;
    private final StreamQueries streams;
    private final ScheduleQueries schedules;

    ScheduleDeclaration(Engine engine) {
        this.engine = engine;
        this.streams = new StreamQueries(engine.sql());
        this.schedules = new ScheduleQueries(engine.sql());
    }

    void register(String name, String streamName, String expression, Object payload, SchedulerConfig config) {
        Names.resource("schedule", name);
        Names.resource("stream", streamName);
        SchedulerConfig declared = config == null ? SchedulerConfig.defaults() : config;
        declared.validate();
        String metadata = metadata(declared.metadata());
        int schemaVersion = PayloadCodec.schemaVersion(payload == null ? null : payload.getClass());
        String payloadJson = engine.codec().encode(payload);
        ScheduleExpression parsed = ScheduleExpression.parse("expression", expression,
                engine.environment().clock().instant());
        if (!engine.migrator().installed()) {
            throw StreamQueries.notFound(streamName);
        }
        long systemId = engine.migrator().ensureSystem();
        Stream stream = engine.database().inTransaction("registering schedule \"" + name + "\"", connection -> {
            Stream target = streams.require(connection, streamName);
            Declaration wanted = new Declaration(target.id(), parsed.text(), schemaVersion, payloadJson,
                    declared.resolvedConcurrency(), declared.resolvedTimeout(), metadata);
            Optional<Long> created = schedules.insert(connection, systemId, name, wanted);
            if (created.isPresent()) {
                schedules.seedCursor(connection, created.get(), firstTime(parsed, connection));
            } else {
                replaceIfDifferent(connection, name, wanted, target, parsed);
            }
            return target;
        });
        if (stream.deliveryLogMode() != DeliveryLogMode.ALL) {
            engine.diagnostics().event(Code.SQL0058, "schedule \"" + name + "\" targets stream \"" + streamName
                    + "\" whose delivery log mode is " + stream.deliveryLogMode().wireName()
                    + ": its status and message outcomes cannot count successes");
        }
    }

    private void replaceIfDifferent(Connection connection, String name, Declaration wanted, Stream target,
                                    ScheduleExpression parsed) throws SQLException {
        Stored stored = schedules.lock(connection, name, wanted).orElseThrow(() -> new SqlStreamsException(
                Code.SQL0025, "schedule \"" + name + "\" vanished while it was being declared; register it again"));
        List<String> changes = differences(stored, wanted, target.name());
        if (changes.isEmpty()) {
            return;
        }
        schedules.update(connection, stored.id(), wanted);
        if (!stored.expression().equals(wanted.expression())) {
            schedules.seedCursor(connection, stored.id(), firstTime(parsed, connection));
        }
        engine.diagnostics().event(Code.SQL0062, "schedule \"" + name + "\" replaced by a differing declaration: "
                + String.join("; ", changes));
    }

    private Instant firstTime(ScheduleExpression parsed, Connection connection) throws SQLException {
        Instant now = schedules.databaseNow(connection);
        return parsed.first(now).orElseThrow(() -> new InvalidConfigurationException(List.of(
                new InvalidConfigurationException.Violation("expression", parsed.text(), "has no upcoming time"))));
    }

    private static List<String> differences(Stored stored, Declaration wanted, String targetStream) {
        List<String> changes = new ArrayList<>();
        change(changes, "stream", stored.stream(), targetStream);
        change(changes, "expression", stored.expression(), wanted.expression());
        change(changes, "schema_version", stored.schemaVersion(), wanted.schemaVersion());
        if (!stored.samePayload()) {
            changes.add("payload " + stored.payload() + " -> " + wanted.payload());
        }
        change(changes, "concurrency", stored.concurrency().wireName(), wanted.concurrency().wireName());
        change(changes, "timeout", DurationText.format(stored.timeout()), DurationText.format(wanted.timeout()));
        if (!stored.sameMetadata()) {
            changes.add("metadata " + stored.metadata() + " -> " + wanted.metadata());
        }
        return changes;
    }

    private static void change(List<String> changes, String field, Object old, Object wanted) {
        if (!Objects.equals(old, wanted)) {
            changes.add(field + " " + old + " -> " + wanted);
        }
    }

    /** The operators' metadata as a JSON object's text, {@code {}} for none; SQL0108 when it is not one. */
    private static String metadata(String json) {
        if (json == null) {
            return JsonObject.EMPTY_JSON_OBJECT.toString();
        }
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readObject().toString();
        } catch (JsonException | IllegalStateException notAnObject) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                    "schedulerConfig.metadata", json, "must be a JSON object")));
        }
    }
}
