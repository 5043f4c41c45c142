package io.sqlstreams.cli;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import io.sqlstreams.BlockedKey;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.Quoting;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * How the operator verbs of {@code consumer} show a group's dead letters, their errors, its blocked ordered keys
 * and its audit trail: snake_case fields, times in ISO-8601 UTC, a stored payload or filter as the JSON it is. In
 * tables an error shows its first line (a stack trace stays in JSON) and a filter reads
 * {@code to_id=3,message_key=acct-2}.
 */
final class OperatorFormats {
    private static final List<String> LETTER_COLUMNS = List.of("message_id", "message_key", "runs", "dead_since",
            "last_error");
    private static final Map<String, Function<JsonValue, String>> ERROR_CELLS = Map.of(
            "last_error", OperatorFormats::errorCell, "blocking_error", OperatorFormats::errorCell);

    static final RowFormat<DeadLetterErrors> ERRORS = new RowFormat<>(DeadLetterErrors::lastError,
            errors -> Json.createObjectBuilder()
                    .add("last_error", errors.lastError())
                    .add("count", errors.count())
                    .add("sample_message_id", errors.sampleMessageId())
                    .add("newest_dead_since", time(errors.newestDeadSince()))
                    .build(),
            List.of("count", "sample_message_id", "newest_dead_since", "last_error"), ERROR_CELLS);

    static final RowFormat<BlockedKey> BLOCKED_KEY = new RowFormat<>(BlockedKey::messageKey,
            blocked -> Json.createObjectBuilder()
                    .add("message_key", blocked.messageKey())
                    .add("waiting", blocked.waiting())
                    .add("blocking_id", blocked.blockingId())
                    .add("blocking_status", blocked.blockingStatus())
                    .add("blocking_runs", blocked.blockingRuns())
                    .add("blocking_run_after", time(blocked.blockingRunAfter()))
                    .add("blocking_error", text(blocked.blockingError()))
                    .build(),
            List.of("message_key", "waiting", "blocking_id", "blocking_status", "blocking_runs",
                    "blocking_run_after", "blocking_error"), ERROR_CELLS);

    static final RowFormat<OperatorAction> ACTION = new RowFormat<>(action -> Long.toString(action.id()),
            OperatorFormats::action, List.of("id", "kind", "actor", "at", "affected", "filter"),
            Map.of("filter", filter -> TextTable.pairs(filter.asJsonObject())));

    private OperatorFormats() {
    }

    /** Dead letters as {@code consumer dead list} shows them; a table has their payload only when asked. */
    static RowFormat<DeadLetter> letters(boolean payloadColumn) {
        return new RowFormat<>(letter -> Long.toString(letter.messageId()), OperatorFormats::letter,
                payloadColumn ? Stream.concat(LETTER_COLUMNS.stream(), Stream.of("payload")).toList()
                        : LETTER_COLUMNS, ERROR_CELLS);
    }

    /** A group's pause as {@code consumer inspect} shows it: whether it is paused, by whom, since when. */
    static JsonObject pause(OperatorAction pause) {
        boolean paused = pause != null;
        return Json.createObjectBuilder()
                .add("paused", paused)
                .add("actor", text(paused ? pause.actor() : null))
                .add("since", time(paused ? pause.at() : null))
                .add("action_id", paused ? Json.createValue(pause.id()) : JsonValue.NULL)
                .build();
    }

    private static JsonObject letter(DeadLetter letter) {
        return Json.createObjectBuilder()
                .add("message_id", letter.messageId())
                .add("message_key", text(letter.messageKey()))
                .add("routing_key", text(letter.routingKey()))
                .add("schema_version", letter.schemaVersion())
                .add("created_at", time(letter.createdAt()))
                .add("runs", letter.runs())
                .add("last_error", text(letter.lastError()))
                .add("dead_since", time(letter.deadSince()))
                .add("payload", StoredJson.parse(letter.payloadJson()))
                .build();
    }

    private static JsonObject action(OperatorAction action) {
        return Json.createObjectBuilder()
                .add("id", action.id())
                .add("kind", action.kind().wireName())
                .add("actor", action.actor())
                .add("at", time(action.at()))
                .add("affected", action.affected())
                .add("filter", StoredJson.parse(action.filterJson()))
                .build();
    }

    /** An error as a table shows it: its first line, and {@code …} when lines were cut. */
    private static String errorCell(JsonValue value) {
        String error = TextTable.cell(value);
        int end = error.indexOf('\n');
        return end < 0 ? Quoting.oneLine(error) : Quoting.oneLine(error.substring(0, end).stripTrailing()) + " …";
    }

    private static JsonValue text(String value) {
        return value == null ? JsonValue.NULL : Json.createValue(value);
    }

    private static JsonValue time(Instant instant) {
        return instant == null ? JsonValue.NULL : Json.createValue(instant.toString());
    }
}
