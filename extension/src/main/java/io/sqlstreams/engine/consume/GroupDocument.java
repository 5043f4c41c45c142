package io.sqlstreams.engine.consume;

import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.engine.codec.DocumentFields;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.codec.OptionsDocument;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * A group declaration as stored on its worker rows: sparse JSON with keys {@code message},
 * {@code message_min}, {@code message_max} (options documents), {@code concurrency_override},
 * {@code exception_initial_backoff} and {@code max_range_reclaims}. {@code start} is read once at creation
 * and bindings live in their own tables, so neither is stored here.
 */
final class GroupDocument {
    private GroupDocument() {
    }

    static JsonObject of(ConsumerConfig config) {
        JsonObjectBuilder document = Json.createObjectBuilder();
        addOptions(document, "message", config.message());
        addOptions(document, "message_min", config.messageMin());
        addOptions(document, "message_max", config.messageMax());
        if (config.concurrencyOverride() != null) {
            document.add("concurrency_override", config.concurrencyOverride().wireName());
        }
        if (config.exceptionInitialBackoff() != null) {
            document.add("exception_initial_backoff",
                    DurationText.formatStorable("exceptionInitialBackoff", config.exceptionInitialBackoff()));
        }
        if (config.maxRangeReclaims() != null) {
            document.add("max_range_reclaims", config.maxRangeReclaims());
        }
        return document.build();
    }

    static JsonObject parse(String json) {
        return DocumentFields.object("metadata", json);
    }

    /**
     * The declaration a stored document describes. Unknown keys are ignored (a newer library version may have
     * written them); a known key with a wrong type or value fails with SQL0108 naming it.
     */
    static ConsumerConfig read(JsonObject document) {
        String override = DocumentFields.string(document, "concurrency_override", "concurrency_override");
        return ConsumerConfig.builder()
                .message(options(document, "message"))
                .messageMin(options(document, "message_min"))
                .messageMax(options(document, "message_max"))
                .concurrencyOverride(override == null ? null : Concurrency.fromWireName(override))
                .exceptionInitialBackoff(DocumentFields.duration(document, "exception_initial_backoff",
                        "exception_initial_backoff"))
                .maxRangeReclaims(DocumentFields.integer(document, "max_range_reclaims", "max_range_reclaims"))
                .build();
    }

    private static void addOptions(JsonObjectBuilder document, String key, MessageOptions options) {
        JsonObject object = OptionsDocument.toObject(options);
        if (object != null) {
            document.add(key, object);
        }
    }

    private static MessageOptions options(JsonObject document, String key) {
        JsonObject object = DocumentFields.object(document, key, key);
        return object == null ? null : OptionsDocument.fromObject(object);
    }
}
