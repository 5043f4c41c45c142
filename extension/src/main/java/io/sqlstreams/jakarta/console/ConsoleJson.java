package io.sqlstreams.jakarta.console;

import io.sqlstreams.BlockedKey;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.DeadLetterPage;
import io.sqlstreams.OperatorAction;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.function.Function;

/** The console's answers as JSON: snake_case names, instants in ISO-8601, absent values as null. */
final class ConsoleJson {
    private ConsoleJson() {
    }

    /** What the overview shows of a group: its progress, its exception rows, its leases and whether it is paused. */
    static JsonObjectBuilder groupSummary(ConsumerInspection inspection) {
        return Json.createObjectBuilder()
                .add("stream", inspection.consumer().stream())
                .add("group", inspection.consumer().name())
                .add("head", inspection.head())
                .add("claimed", inspection.claimed())
                .add("committed", inspection.committed())
                .add("lag", inspection.lag())
                .add("exceptions", exceptions(inspection.exceptions()))
                .add("dead", inspection.dead())
                .add("open_leases", inspection.openLeases())
                .add("paused", inspection.paused());
    }

    static JsonObject groupDetail(ConsumerInspection inspection, Collection<BlockedKey> blocked,
                                  Collection<OperatorAction> actions) {
        return groupSummary(inspection)
                .add("pause", action(inspection.pause()))
                .add("blocked_keys", array(blocked, ConsoleJson::blockedKey))
                .add("actions", array(actions, ConsoleJson::action))
                .build();
    }

    static JsonObject page(DeadLetterPage page) {
        JsonObjectBuilder json = Json.createObjectBuilder().add("letters", array(page.letters(), ConsoleJson::letter));
        return page.nextBeforeId() == null ? json.addNull("next_before_id").build()
                : json.add("next_before_id", page.nextBeforeId()).build();
    }

    static JsonObject errors(Collection<DeadLetterErrors> errors) {
        return Json.createObjectBuilder().add("errors", array(errors, error -> Json.createObjectBuilder()
                .add("last_error", text(error.lastError()))
                .add("count", error.count())
                .add("sample_message_id", error.sampleMessageId())
                .add("newest_dead_since", instant(error.newestDeadSince()))
                .build())).build();
    }

    static JsonObject count(long count) {
        return Json.createObjectBuilder().add("count", count).build();
    }

    static JsonValue action(OperatorAction action) {
        if (action == null) {
            return JsonValue.NULL;
        }
        return Json.createObjectBuilder()
                .add("id", action.id())
                .add("kind", action.kind().wireName())
                .add("actor", text(action.actor()))
                .add("at", instant(action.at()))
                .add("affected", action.affected())
                .add("filter", document(action.filterJson()))
                .build();
    }

    static JsonObject failure(ConsoleFailure failure) {
        return Json.createObjectBuilder().add("code", text(failure.code())).add("message", text(failure.getMessage()))
                .build();
    }

    private static JsonObject letter(DeadLetter letter) {
        return Json.createObjectBuilder()
                .add("message_id", letter.messageId())
                .add("message_key", text(letter.messageKey()))
                .add("routing_key", text(letter.routingKey()))
                .add("schema_version", letter.schemaVersion())
                .add("created_at", instant(letter.createdAt()))
                .add("runs", letter.runs())
                .add("last_error", text(letter.lastError()))
                .add("dead_since", instant(letter.deadSince()))
                .add("payload", document(letter.payloadJson()))
                .build();
    }

    private static JsonObject blockedKey(BlockedKey key) {
        return Json.createObjectBuilder()
                .add("message_key", text(key.messageKey()))
                .add("blocking_id", key.blockingId())
                .add("blocking_status", text(key.blockingStatus()))
                .add("blocking_runs", key.blockingRuns())
                .add("blocking_error", text(key.blockingError()))
                .add("blocking_run_after", instant(key.blockingRunAfter()))
                .add("waiting", key.waiting())
                .build();
    }

    private static JsonObject exceptions(Map<String, Long> byStatus) {
        JsonObjectBuilder json = Json.createObjectBuilder();
        byStatus.forEach(json::add);
        return json.build();
    }

    private static <T> JsonArrayBuilder array(Collection<T> items, Function<T, JsonValue> mapping) {
        JsonArrayBuilder json = Json.createArrayBuilder();
        items.forEach(item -> json.add(mapping.apply(item)));
        return json;
    }

    private static JsonValue text(String text) {
        return text == null ? JsonValue.NULL : Json.createValue(text);
    }

    private static JsonValue instant(Instant instant) {
        return instant == null ? JsonValue.NULL : Json.createValue(instant.toString());
    }

    /** A stored JSON document as itself rather than as a string holding it. */
    private static JsonValue document(String json) {
        if (json == null) {
            return JsonValue.NULL;
        }
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }
}
