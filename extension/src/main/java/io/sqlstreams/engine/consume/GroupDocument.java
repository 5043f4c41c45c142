package io.sqlstreams.engine.consume;

import java.io.StringReader;
import java.util.List;

import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.codec.OptionsDocument;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

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
        try {
            return Json.createReader(new StringReader(json)).readObject();
        } catch (JsonException | IllegalStateException malformed) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                    "metadata", json, "must be a JSON object")));
        }
    }

    /**
     * The declaration a stored document describes. Unknown keys are ignored (a newer library version may have
     * written them); a known key with a wrong type or value fails with SQL0108 naming it.
     */
    static ConsumerConfig read(JsonObject document) {
        String override = string(document, "concurrency_override");
        String backoff = string(document, "exception_initial_backoff");
        return ConsumerConfig.builder()
                .message(options(document, "message"))
                .messageMin(options(document, "message_min"))
                .messageMax(options(document, "message_max"))
                .concurrencyOverride(override == null ? null : Concurrency.fromWireName(override))
                .exceptionInitialBackoff(backoff == null ? null : DurationText.parse("exception_initial_backoff", backoff))
                .maxRangeReclaims(integer(document, "max_range_reclaims"))
                .build();
    }

    private static String string(JsonObject document, String key) {
        JsonValue value = document.get(key);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value instanceof JsonString text) {
            return text.getString();
        }
        throw wrongType(key, value, "must be a JSON string");
    }

    private static Integer integer(JsonObject document, String key) {
        JsonValue value = document.get(key);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value instanceof JsonNumber number && number.isIntegral()) {
            try {
                return number.intValueExact();
            } catch (ArithmeticException tooLarge) {
                throw wrongType(key, value, "must fit a 32-bit integer");
            }
        }
        throw wrongType(key, value, "must be an integer");
    }

    private static InvalidConfigurationException wrongType(String key, JsonValue value, String rule) {
        return new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(key, value, rule)));
    }

    private static void addOptions(JsonObjectBuilder document, String key, MessageOptions options) {
        JsonObject object = OptionsDocument.toObject(options);
        if (object != null) {
            document.add(key, object);
        }
    }

    private static MessageOptions options(JsonObject document, String key) {
        JsonValue value = document.get(key);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value instanceof JsonObject object) {
            return OptionsDocument.fromObject(object);
        }
        throw wrongType(key, value, "must be a JSON object");
    }
}
