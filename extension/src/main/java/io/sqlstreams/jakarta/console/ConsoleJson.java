package io.sqlstreams.jakarta.console;

import static io.sqlstreams.engine.codec.JsonValues.document;
import static io.sqlstreams.engine.codec.JsonValues.text;

import io.sqlstreams.BlockedKey;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.DeadLetterPage;
import io.sqlstreams.GroupFence;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.engine.operator.OperatorJson;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
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
                                  Collection<OperatorAction> actions, GroupFence fence) {
        return groupSummary(inspection)
                .add("pause", action(inspection.pause()))
                .add("blocked_keys", array(blocked, OperatorJson::blockedKey))
                .add("actions", array(actions, ConsoleJson::action))
                .add("fence", OperatorJson.fence(fence))
                .build();
    }

    static JsonObject page(DeadLetterPage page) {
        JsonObjectBuilder json = Json.createObjectBuilder().add("letters", array(page.letters(), OperatorJson::letter));
        return page.nextBeforeId() == null ? json.addNull("next_before_id").build()
                : json.add("next_before_id", page.nextBeforeId()).build();
    }

    /** The error groups, each with {@code sample_payload}: its sample's payload, null when that was settled since. */
    static JsonObject errors(Collection<DeadLetterErrors> errors, Map<Long, DeadLetter> samples) {
        return Json.createObjectBuilder().add("errors", array(errors, group -> {
            DeadLetter sample = samples.get(group.sampleMessageId());
            return Json.createObjectBuilder(OperatorJson.errors(group))
                    .add("sample_payload", sample == null ? JsonValue.NULL : document(sample.payloadJson()))
                    .build();
        })).build();
    }

    static JsonObject count(long count) {
        return Json.createObjectBuilder().add("count", count).build();
    }

    static JsonValue action(OperatorAction action) {
        return action == null ? JsonValue.NULL : OperatorJson.action(action);
    }

    static JsonObject failure(ConsoleFailure failure) {
        return Json.createObjectBuilder().add("code", text(failure.code())).add("message", text(failure.getMessage()))
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
}
