package io.sqlstreams.engine;

import java.io.StringReader;
import java.util.HashMap;
import java.util.Map;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * A message's headers as the log stores them: one JSON object of text values, or SQL NULL for none, so a message
 * without headers costs neither storage nor a parse.
 */
public final class HeadersDocument {
    private HeadersDocument() {
    }

    /** The stored document of {@code headers}; null when there are none. */
    public static String toJson(Map<String, String> headers) {
        if (headers.isEmpty()) {
            return null;
        }
        return toObject(headers).toString();
    }

    /** {@code headers} as a JSON object, for the operator surfaces. */
    public static JsonObject toObject(Map<String, String> headers) {
        JsonObjectBuilder document = Json.createObjectBuilder();
        headers.forEach(document::add);
        return document.build();
    }

    /** The headers of a stored document; empty for null. Values that are not text (never written) are skipped. */
    public static Map<String, String> fromJson(String json) {
        if (json == null) {
            return Map.of();
        }
        JsonObject document;
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            document = reader.readObject();
        }
        Map<String, String> headers = new HashMap<>(document.size() * 2);
        for (Map.Entry<String, JsonValue> header : document.entrySet()) {
            if (header.getValue() instanceof JsonString text) {
                headers.put(header.getKey(), text.getString());
            }
        }
        return Map.copyOf(headers);
    }
}
