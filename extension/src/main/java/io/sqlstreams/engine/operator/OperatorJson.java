package io.sqlstreams.engine.operator;

import static io.sqlstreams.engine.codec.JsonValues.document;
import static io.sqlstreams.engine.codec.JsonValues.instant;
import static io.sqlstreams.engine.codec.JsonValues.text;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertOwner;
import io.sqlstreams.BlockedKey;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.GroupFence;
import io.sqlstreams.MessageWhereabouts;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.Schedule;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.HeadersDocument;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Locale;
import java.util.TreeMap;

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
                .add("headers", HeadersDocument.toObject(letter.headers()))
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

    /** A group's fence: {@code holder} null when nothing holds it, its {@code pid} null when prepared. */
    public static JsonObject fence(GroupFence fence) {
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("consumer", fence.group())
                .add("held", fence.held())
                .add("summary", fence.describe());
        GroupFence.Holder holder = fence.oldestHolder();
        if (holder == null) {
            json.addNull("holder");
        } else {
            JsonObjectBuilder oldest = Json.createObjectBuilder();
            if (holder.pid() == null) {
                oldest.addNull("pid");
            } else {
                oldest.add("pid", holder.pid());
            }
            oldest.add("xid", holder.xid());
            if (holder.open() == null) {
                oldest.addNull("open_seconds");
            } else {
                oldest.add("open_seconds", holder.open().toSeconds());
            }
            json.add("holder", oldest.add("state", holder.state()));
        }
        return json.add("more_holders", fence.moreHolders()).build();
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

    public static JsonObject schedule(Schedule schedule) {
        return Json.createObjectBuilder()
                .add("name", schedule.name())
                .add("stream", schedule.stream())
                .add("expression", schedule.expression())
                .add("suspended", schedule.suspended())
                .add("schema_version", schedule.schemaVersion())
                .add("payload", document(schedule.payload()))
                .add("timeout", DurationText.format(schedule.config().resolvedTimeout()))
                .add("concurrency", schedule.config().resolvedConcurrency().wireName())
                .add("metadata", document(schedule.config().metadata()))
                .add("next_scheduled_at", instant(schedule.nextScheduledAt()))
                .add("last_scheduled_at", instant(schedule.lastScheduledAt()))
                .add("created_at", instant(schedule.createdAt()))
                .add("updated_at", instant(schedule.updatedAt()))
                .build();
    }

    /** A recorded alert report; its owner reads {@code system}, {@code stream} or {@code consumer_group}. */
    public static JsonObject alert(Alert alert) {
        return Json.createObjectBuilder()
                .add("name", alert.name())
                .add("code", alert.code().id())
                .add("status", lower(alert.status()))
                .add("severity", alert.severity())
                .add("owner", owner(alert.owner()))
                .add("message", alert.message())
                .add("detail", alert.detail())
                .add("hint", alert.hint())
                .add("data", document(alert.data()))
                .add("at", instant(alert.at()))
                .build();
    }

    /** Where a message is: its own fields, then its placement in each group of the stream, by group name. */
    public static JsonObject whereabouts(MessageWhereabouts message) {
        JsonObjectBuilder groups = Json.createObjectBuilder();
        new TreeMap<>(message.groups()).forEach((group, placement) -> groups.add(group, Json.createObjectBuilder()
                .add("state", placement.state().wireName())
                .add("runs", placement.runs())
                .add("last_error", text(placement.lastError()))
                .add("run_after", instant(placement.runAfter()))));
        return Json.createObjectBuilder()
                .add("message_id", message.id())
                .add("message_key", text(message.messageKey()))
                .add("routing_key", text(message.routingKey()))
                .add("created_at", instant(message.createdAt()))
                .add("groups", groups)
                .build();
    }

    private static JsonObject owner(AlertOwner owner) {
        return Json.createObjectBuilder()
                .add("kind", lower(owner.kind()))
                .add("id", owner.id())
                .add("stream", text(owner.stream()))
                .add("group", text(owner.group()))
                .build();
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
