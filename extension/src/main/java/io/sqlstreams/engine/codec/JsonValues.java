package io.sqlstreams.engine.codec;

import java.io.StringReader;
import java.time.Instant;

import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

/** Values as the JSON the operator surfaces write: absent as null, instants in ISO-8601 UTC. */
public final class JsonValues {
    private JsonValues() {
    }

    public static JsonValue text(String text) {
        return text == null ? JsonValue.NULL : Json.createValue(text);
    }

    public static JsonValue instant(Instant instant) {
        return instant == null ? JsonValue.NULL : Json.createValue(instant.toString());
    }

    /** A stored JSON document as itself rather than as a string holding it; a payload may be any JSON value. */
    public static JsonValue document(String json) {
        if (json == null) {
            return JsonValue.NULL;
        }
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }
}
