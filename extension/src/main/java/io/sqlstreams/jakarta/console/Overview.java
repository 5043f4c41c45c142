package io.sqlstreams.jakarta.console;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.ManagerStatus;
import io.sqlstreams.Measurement;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.Worker;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.Locale;
import java.util.Optional;

/** The overview: this process's manager, then every stream's groups with their figures and health. */
final class Overview {
    private static final String MESSAGE_CONSUMER = "message_consumer";

    private final SqlStreams client;

    Overview(SqlStreams client) {
        this.client = client;
    }

    JsonObject answer() {
        JsonArrayBuilder streams = Json.createArrayBuilder();
        client.streams().forEach(stream -> {
            StreamHandle<Object> handle = client.stream(stream.name(), Object.class);
            JsonArrayBuilder groups = Json.createArrayBuilder();
            handle.consumers().forEach(consumer -> groups.add(group(handle.consumer(consumer.name()))));
            streams.add(Json.createObjectBuilder().add("stream", stream.name()).add("groups", groups));
        });
        return Json.createObjectBuilder().add("manager", manager(client.manager().status())).add("streams", streams)
                .build();
    }

    private static JsonObject manager(ManagerStatus status) {
        return Json.createObjectBuilder()
                .add("state", status.state().name().toLowerCase(Locale.ROOT))
                .add("workers_running", status.workersRunning())
                .add("last_error", status.lastError().<JsonValue>map(Json::createValue).orElse(JsonValue.NULL))
                .build();
    }

    private JsonObjectBuilder group(ConsumerHandle<Object> group) {
        ConsumerInspection inspection = group.inspect();
        Integer live = group.workers().stream().filter(worker -> worker.name().equals(MESSAGE_CONSUMER))
                .map(Worker::liveInstances).findFirst().orElse(null);
        RecordedFigures recorded = new RecordedFigures(client.system().metrics(), group.stream(), group.name());
        Optional<Measurement> age = recorded.oldestUnresolvedAge();
        GroupHealth health = GroupHealth.of(inspection, live);
        return ConsoleJson.groupSummary(inspection)
                .add("live_instances", live == null ? JsonValue.NULL : Json.createValue(live))
                .add("oldest_unresolved_age_ms", age.<JsonValue>map(m -> Json.createValue(RecordedFigures.millis(m)))
                        .orElse(JsonValue.NULL))
                .add("oldest_unresolved_age_at", age.<JsonValue>map(m -> Json.createValue(m.at().toString()))
                        .orElse(JsonValue.NULL))
                .add("rate_per_second", recorded.commitRate().<JsonValue>map(Json::createValue)
                        .orElse(JsonValue.NULL))
                .add("health", health.word())
                .add("health_reason", health.reason());
    }
}
