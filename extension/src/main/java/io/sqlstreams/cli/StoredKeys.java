package io.sqlstreams.cli;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

/**
 * A stored configuration document read as dotted keys: {@code {"message":{"timeout":"10s"}}} holds
 * {@code message.timeout = "10s"}. Objects are walked into; every other value is a leaf.
 */
final class StoredKeys {
    private StoredKeys() {
    }

    static JsonObject parse(String document) {
        try (JsonReader reader = Json.createReader(new StringReader(document))) {
            return reader.readObject();
        }
    }

    /** The document's leaves by dotted key, in document order. */
    static Map<String, JsonValue> flatten(JsonObject document) {
        Map<String, JsonValue> keys = new LinkedHashMap<>();
        collect("", document, keys);
        return keys;
    }

    /** True when {@code key} is {@code filter} or lies below it: {@code message.retry} selects {@code message.retry.max_retries}. */
    static boolean selects(String filter, String key) {
        return key.equals(filter) || key.startsWith(filter + ".");
    }

    private static void collect(String prefix, JsonObject object, Map<String, JsonValue> into) {
        for (Map.Entry<String, JsonValue> field : object.entrySet()) {
            String key = prefix + field.getKey();
            if (field.getValue() instanceof JsonObject nested) {
                collect(key + ".", nested, into);
            } else {
                into.put(key, field.getValue());
            }
        }
    }
}
