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

    /** The declaration a stored document describes; unknown keys are ignored. */
    static ConsumerConfig read(JsonObject document) {
        return ConsumerConfig.builder()
                .message(options(document, "message"))
                .messageMin(options(document, "message_min"))
                .messageMax(options(document, "message_max"))
                .concurrencyOverride(document.get("concurrency_override") instanceof JsonString policy
                        ? Concurrency.fromWireName(policy.getString()) : null)
                .exceptionInitialBackoff(document.get("exception_initial_backoff") instanceof JsonString backoff
                        ? DurationText.parse("exception_initial_backoff", backoff.getString()) : null)
                .maxRangeReclaims(document.get("max_range_reclaims") instanceof JsonNumber reclaims
                        ? reclaims.intValueExact() : null)
                .build();
    }

    private static void addOptions(JsonObjectBuilder document, String key, MessageOptions options) {
        JsonObject object = OptionsDocument.toObject(options);
        if (object != null) {
            document.add(key, object);
        }
    }

    private static MessageOptions options(JsonObject document, String key) {
        JsonValue value = document.get(key);
        return value instanceof JsonObject object ? OptionsDocument.fromObject(object) : null;
    }
}
