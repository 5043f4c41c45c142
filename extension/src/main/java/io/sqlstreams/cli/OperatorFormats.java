package io.sqlstreams.cli;

import static io.sqlstreams.engine.codec.JsonValues.instant;
import static io.sqlstreams.engine.codec.JsonValues.text;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import io.sqlstreams.BlockedKey;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.Quoting;
import io.sqlstreams.engine.operator.OperatorJson;
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
            OperatorJson::errors,
            List.of("count", "sample_message_id", "newest_dead_since", "last_error"), ERROR_CELLS);

    static final RowFormat<BlockedKey> BLOCKED_KEY = new RowFormat<>(BlockedKey::messageKey,
            OperatorJson::blockedKey,
            List.of("message_key", "waiting", "blocking_id", "blocking_status", "blocking_runs",
                    "blocking_run_after", "blocking_error"), ERROR_CELLS);

    static final RowFormat<OperatorAction> ACTION = new RowFormat<>(action -> Long.toString(action.id()),
            OperatorJson::action, List.of("id", "kind", "actor", "at", "affected", "filter"),
            Map.of("filter", filter -> TextTable.pairs(filter.asJsonObject())));

    private OperatorFormats() {
    }

    /** Dead letters as {@code consumer dead list} shows them; a table has their payload only when asked. */
    static RowFormat<DeadLetter> letters(boolean payloadColumn) {
        return new RowFormat<>(letter -> Long.toString(letter.messageId()), OperatorJson::letter,
                payloadColumn ? Stream.concat(LETTER_COLUMNS.stream(), Stream.of("payload")).toList()
                        : LETTER_COLUMNS, ERROR_CELLS);
    }

    /** A group's pause as {@code consumer inspect} shows it: whether it is paused, by whom, since when. */
    static JsonObject pause(OperatorAction pause) {
        boolean paused = pause != null;
        return Json.createObjectBuilder()
                .add("paused", paused)
                .add("actor", text(paused ? pause.actor() : null))
                .add("since", instant(paused ? pause.at() : null))
                .add("action_id", paused ? Json.createValue(pause.id()) : JsonValue.NULL)
                .build();
    }



    /** An error as a table shows it: its first line, and {@code …} when lines were cut. */
    private static String errorCell(JsonValue value) {
        String error = TextTable.cell(value);
        int end = error.indexOf('\n');
        return end < 0 ? Quoting.oneLine(error) : Quoting.oneLine(error.substring(0, end).stripTrailing()) + " …";
    }


}
