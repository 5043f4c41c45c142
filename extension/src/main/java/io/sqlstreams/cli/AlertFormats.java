package io.sqlstreams.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertEvaluationSnapshot;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.operator.OperatorJson;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * How the {@code alert} commands show a recorded report and an evaluation: JSON with snake_case fields and
 * lower-case enum values; in tables the owner reads {@code system}, {@code stream <stream>} or
 * {@code consumer <stream>/<group>}.
 */
final class AlertFormats {
    static final RowFormat<Alert> REPORT = new RowFormat<>(Alert::name, OperatorJson::alert,
            List.of("name", "code", "status", "owner", "at", "message"), Map.of("owner", AlertFormats::owner));

    private AlertFormats() {
    }

    static JsonObject snapshot(AlertEvaluationSnapshot snapshot) {
        JsonObjectBuilder fields = Json.createObjectBuilder()
                .add("state", lower(snapshot.state()))
                .add("finding", snapshot.finding());
        time(fields, "evaluated_at", snapshot.evaluatedAt());
        time(fields, "observed_at", snapshot.observedAt());
        time(fields, "unhealthy_since", snapshot.unhealthySince());
        duration(fields, "observed_duration", snapshot.observedDuration());
        duration(fields, "pending_duration", snapshot.pendingDuration());
        fields.add("disable_pending", snapshot.disablePending());
        duration(fields, "maximum_gap", snapshot.maximumGap());
        duration(fields, "maximum_age", snapshot.maximumAge());
        return fields.add("reason", snapshot.reason()).build();
    }

    /** The owner column of a table, from the {@code owner} object of {@link OperatorJson#alert}. */
    private static String owner(JsonValue owner) {
        JsonObject fields = owner.asJsonObject();
        return switch (fields.getString("kind")) {
            case "stream" -> "stream " + fields.getString("stream");
            case "consumer_group" -> "consumer " + fields.getString("stream") + "/" + fields.getString("group");
            default -> "system";
        };
    }

    private static void text(JsonObjectBuilder fields, String name, String value) {
        if (value == null) {
            fields.addNull(name);
        } else {
            fields.add(name, value);
        }
    }

    private static void time(JsonObjectBuilder fields, String name, Instant value) {
        text(fields, name, value == null ? null : value.toString());
    }

    private static void duration(JsonObjectBuilder fields, String name, Duration value) {
        text(fields, name, value == null ? null : DurationText.format(value));
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
