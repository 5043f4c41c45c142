package io.sqlstreams.engine.codec;

import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidConfigurationException.Violation;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Typed reads of the keys of a stored JSON document (message options, group declarations, worker settings). A
 * key that is absent or JSON {@code null} is unset; a value of the wrong type fails with SQL0108 naming the key's
 * path, for example {@code retry.base_delay}.
 */
public final class DocumentFields {
    private static final JsonReaderFactory READERS = Json.createReaderFactory(Map.of());

    private DocumentFields() {
    }

    /** The JSON object {@code json} holds; SQL0108 naming {@code property} when it is not one. */
    public static JsonObject object(String property, String json) {
        JsonValue document;
        try (JsonReader reader = READERS.createReader(new StringReader(json))) {
            document = reader.readValue();
        } catch (JsonException malformed) {
            throw invalid(property, json, "must be a JSON object (" + malformed.getMessage() + ")");
        }
        if (!(document instanceof JsonObject object)) {
            throw invalid(property, json, "must be a JSON object");
        }
        return object;
    }

    public static boolean isUnset(JsonValue value) {
        return value == null || value.getValueType() == JsonValue.ValueType.NULL;
    }

    /** The object under {@code key}; {@code null} when unset. */
    public static JsonObject object(JsonObject document, String key, String path) {
        return typed(document, key, path, JsonObject.class, "must be a JSON object");
    }

    public static String string(JsonObject document, String key, String path) {
        JsonString string = typed(document, key, path, JsonString.class, "must be a JSON string");
        return string == null ? null : string.getString();
    }

    public static Integer integer(JsonObject document, String key, String path) {
        Long whole = wholeNumber(document, key, path);
        if (whole != null && (whole < Integer.MIN_VALUE || whole > Integer.MAX_VALUE)) {
            throw invalid(path, document.get(key), "must fit a 32-bit integer");
        }
        return whole == null ? null : whole.intValue();
    }

    /** A whole number of 64 bits; {@code null} when unset. */
    public static Long wholeNumber(JsonObject document, String key, String path) {
        JsonValue value = document.get(key);
        if (isUnset(value)) {
            return null;
        }
        if (value instanceof JsonNumber number && number.isIntegral()) {
            try {
                return number.longValueExact();
            } catch (ArithmeticException tooLarge) {
                throw invalid(path, value, "must fit a 64-bit integer");
            }
        }
        throw invalid(path, value, "must be an integer");
    }

    /** {@code true} or {@code false}; false when unset. */
    public static boolean flag(JsonObject document, String key, String path) {
        JsonValue value = document.get(key);
        if (isUnset(value)) {
            return false;
        }
        if (value != JsonValue.TRUE && value != JsonValue.FALSE) {
            throw invalid(path, value, "must be true or false");
        }
        return value == JsonValue.TRUE;
    }

    /** A duration in {@link DurationText}'s spelling. */
    public static Duration duration(JsonObject document, String key, String path) {
        String text = string(document, key, path);
        return text == null ? null : DurationText.parse(path, text);
    }

    private static <T extends JsonValue> T typed(JsonObject document, String key, String path, Class<T> type,
                                                 String rule) {
        JsonValue value = document.get(key);
        if (isUnset(value)) {
            return null;
        }
        if (!type.isInstance(value)) {
            throw invalid(path, value, rule);
        }
        return type.cast(value);
    }

    static InvalidConfigurationException invalid(String property, Object value, String rule) {
        return new InvalidConfigurationException(List.of(new Violation(property, value, rule)));
    }
}
