package io.sqlstreams.engine.operator;

import static io.sqlstreams.engine.codec.JsonValues.document;
import static io.sqlstreams.engine.codec.JsonValues.instant;
import static io.sqlstreams.engine.codec.JsonValues.text;

import io.sqlstreams.BlockedKey;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.OperatorAction;
import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * The operator verbs' answers as the CLI and the console both write them: snake_case fields, instants in ISO-8601
 * UTC, a stored payload or filter as the JSON it is, absent values as null.
 */
public final class OperatorJson {
    private OperatorJson() {
    }

    public static JsonObject letter(DeadLetter letter) {
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

    public static JsonObject errors(DeadLetterErrors errors) {
        return Json.createObjectBuilder()
                .add("last_error", text(errors.lastError()))
                .add("count", errors.count())
                .add("sample_message_id", errors.sampleMessageId())
                .add("newest_dead_since", instant(errors.newestDeadSince()))
                .build();
    }

    public static JsonObject blockedKey(BlockedKey key) {
        return Json.createObjectBuilder()
                .add("message_key", text(key.messageKey()))
                .add("waiting", key.waiting())
                .add("blocking_id", key.blockingId())
                .add("blocking_status", text(key.blockingStatus()))
                .add("blocking_runs", key.blockingRuns())
                .add("blocking_run_after", instant(key.blockingRunAfter()))
                .add("blocking_error", text(key.blockingError()))
                .build();
    }

    public static JsonObject action(OperatorAction action) {
        return Json.createObjectBuilder()
                .add("id", action.id())
                .add("kind", action.kind().wireName())
                .add("actor", text(action.actor()))
                .add("at", instant(action.at()))
                .add("affected", action.affected())
                .add("filter", document(action.filterJson()))
                .build();
    }
}
