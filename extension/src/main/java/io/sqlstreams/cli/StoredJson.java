package io.sqlstreams.cli;

import java.io.StringReader;

import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

/** A JSON document as the installation stores it, read back: a payload may be any JSON value, not only an object. */
final class StoredJson {
    private StoredJson() {
    }

    static JsonValue parse(String document) {
        try (JsonReader reader = Json.createReader(new StringReader(document))) {
            return reader.readValue();
        }
    }
}
