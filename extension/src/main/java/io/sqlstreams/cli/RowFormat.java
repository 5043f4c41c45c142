package io.sqlstreams.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.sqlstreams.Consumer;
import io.sqlstreams.StoredMessage;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.HeadersDocument;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * How {@code list} and {@code get} show one kind of row: its name (what {@code --quiet} prints), its JSON object
 * (snake_case fields, durations in Go's spelling such as {@code 24h0m0s}, times in ISO-8601 UTC), and which of
 * those fields a list table shows. A field whose JSON is not a plain value can name how a table shows it in
 * {@code cells}; any other field reads as {@link TextTable#cell}.
 */
record RowFormat<R>(Function<R, String> name, Function<R, JsonObject> json, List<String> listColumns,
                    Map<String, Function<JsonValue, String>> cells) {

    static final RowFormat<Stream> STREAM = new RowFormat<>(Stream::name, stream -> Json.createObjectBuilder()
            .add("id", stream.id())
            .add("name", stream.name())
            .add("partition_size", stream.partitionSize())
            .add("retention_ttl", duration(stream.retentionTtl()))
            .add("allow_drop_past_committed", stream.allowDropPastCommitted())
            .add("idempotency_key_ttl", duration(stream.idempotencyKeyTtl()))
            .add("empty_compaction_head_ttl", duration(stream.emptyCompactionHeadTtl()))
            .add("delivery_log_mode", stream.deliveryLogMode().wireName())
            .add("fence_warn_after", duration(stream.fenceWarnAfter()))
            .add("created_at", time(stream.createdAt()))
            .add("updated_at", time(stream.updatedAt()))
            .build(),
            List.of("name", "id", "partition_size", "retention_ttl", "delivery_log_mode", "created_at"));

    static final RowFormat<Consumer> CONSUMER = new RowFormat<>(Consumer::name, consumer -> Json.createObjectBuilder()
            .add("id", consumer.id())
            .add("stream", consumer.stream())
            .add("name", consumer.name())
            .add("created_at", time(consumer.createdAt()))
            .add("updated_at", time(consumer.updatedAt()))
            .build(),
            List.of("name", "id", "created_at", "updated_at"));

    /**
     * A retained message with its payload as stored and its headers as an object; {@code compaction_rank} is null
     * when it did not opt in.
     */
    static final RowFormat<StoredMessage<JsonValue>> MESSAGE = new RowFormat<>(message -> Long.toString(message.id()),
            message -> Json.createObjectBuilder()
                    .add("id", message.id())
                    .add("created_at", time(message.createdAt()))
                    .add("routing_key", nullable(message.routingKey()))
                    .add("message_key", nullable(message.messageKey()))
                    .add("compaction_rank", message.compactionRank() == null ? JsonValue.NULL
                            : Json.createValue(message.compactionRank()))
                    .add("schema_version", message.schemaVersion())
                    .add("message", message.message())
                    .add("headers", HeadersDocument.toObject(message.headers()))
                    .build(),
            List.of("id", "compaction_rank", "schema_version", "created_at", "routing_key", "headers", "message"),
            Map.of("headers", headers -> TextTable.pairs(headers.asJsonObject())));

    RowFormat(Function<R, String> name, Function<R, JsonObject> json, List<String> listColumns) {
        this(name, json, listColumns, Map.of());
    }

    /** The rows as a JSON array of their objects. */
    JsonArray array(List<R> rows) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        rows.forEach(row -> array.add(json.apply(row)));
        return array.build();
    }

    /** The list table: a header of upper-cased column names, then one row per item. */
    TextTable table(List<R> rows) {
        TextTable table = TextTable.withHeaders(listColumns.stream().map(column -> column.toUpperCase(Locale.ROOT))
                .toArray(String[]::new));
        for (R row : rows) {
            JsonObject fields = json.apply(row);
            table.row(listColumns.stream().map(column -> cell(column, fields.get(column))).toList());
        }
        return table;
    }

    /** The {@code get} table: one {@code name value} row per field. */
    TextTable fields(R row) {
        JsonObjectBuilder shown = Json.createObjectBuilder();
        json.apply(row).forEach((field, value) -> shown.add(field, cell(field, value)));
        return TextTable.fields(shown.build());
    }

    private String cell(String field, JsonValue value) {
        Function<JsonValue, String> shown = cells.get(field);
        return shown == null ? TextTable.cell(value) : shown.apply(value);
    }

    private static String duration(Duration duration) {
        return DurationText.format(duration);
    }

    private static JsonValue nullable(String text) {
        return text == null ? JsonValue.NULL : Json.createValue(text);
    }

    private static String time(Instant instant) {
        return instant.toString();
    }
}
