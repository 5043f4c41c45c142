package io.sqlstreams.cli;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.sqlstreams.Schedule;
import io.sqlstreams.ScheduleGroupStatus;
import io.sqlstreams.ScheduledMessage;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.codec.JsonValues;
import io.sqlstreams.engine.operator.OperatorJson;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * How the {@code schedule} commands show a schedule, its messages and how each consumer group fared with them:
 * the stored payload and metadata as JSON, a message's outcomes by group as an object (in tables
 * {@code audit=succeeded,billing=pending}).
 */
final class ScheduleFormats {
    static final RowFormat<Schedule> SCHEDULE = new RowFormat<>(Schedule::name, OperatorJson::schedule,
            List.of("name", "stream", "expression", "suspended", "next_scheduled_at", "last_scheduled_at"));

    static final RowFormat<ScheduledMessage> MESSAGE = new RowFormat<>(message -> Long.toString(message.id()),
            ScheduleFormats::message, List.of("id", "scheduled_at", "created_at", "outcomes", "next_id"),
            Map.of("outcomes", outcomes -> TextTable.pairs(outcomes.asJsonObject())));

    static final RowFormat<ScheduleGroupStatus> GROUP_STATUS = new RowFormat<>(ScheduleGroupStatus::group,
            status -> Json.createObjectBuilder()
                    .add("group", status.group())
                    .add("ran", status.ran())
                    .add("succeeded", status.succeeded())
                    .add("failed", status.failed())
                    .add("superseded", status.superseded())
                    .build(),
            List.of("group", "ran", "succeeded", "failed", "superseded"));

    /** A schedule as {@code schedule get} shows it: its fields, then its newest messages when they were asked for. */
    static final RowFormat<Detail> DETAIL = new RowFormat<>(detail -> detail.schedule().name(), detail -> {
        JsonObjectBuilder fields = Json.createObjectBuilder(OperatorJson.schedule(detail.schedule()));
        if (detail.messages() != null) {
            fields.add("messages", MESSAGE.array(detail.messages()));
        }
        return fields.build();
    }, List.of());

    /** A schedule and its newest messages; {@code messages} is null when they were not asked for. */
    record Detail(Schedule schedule, List<ScheduledMessage> messages) {
    }

    private ScheduleFormats() {
    }

    private static JsonObject message(ScheduledMessage message) {
        JsonObjectBuilder outcomes = Json.createObjectBuilder();
        new TreeMap<>(message.outcomes()).forEach((group, outcome) -> outcomes.add(group, outcome.wireName()));
        return Json.createObjectBuilder()
                .add("id", message.id())
                .add("scheduled_at", JsonValues.instant(message.scheduledAt()))
                .add("created_at", JsonValues.instant(message.createdAt()))
                .add("outcomes", outcomes)
                .add("next_id", message.nextId() == null ? JsonValue.NULL : Json.createValue(message.nextId()))
                .add("next_at", JsonValues.instant(message.nextAt()))
                .build();
    }
}
