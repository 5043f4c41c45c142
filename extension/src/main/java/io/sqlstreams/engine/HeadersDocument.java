package io.sqlstreams.engine;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import jakarta.json.Json;
import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonWriter;
import jakarta.json.JsonWriterFactory;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;

/**
 * A message's headers as the log stores them: one JSON object of text values, or SQL NULL for none, so a message
 * without headers costs neither storage nor a parse. The factories are made once: {@code Json.createReader} and its
 * kin look the JSON provider up again on every call, which costs more than the document itself.
 */
public final class HeadersDocument {
    private static final JsonBuilderFactory BUILDERS = Json.createBuilderFactory(Map.of());
    private static final JsonParserFactory PARSERS = Json.createParserFactory(Map.of());
    private static final JsonWriterFactory WRITERS = Json.createWriterFactory(Map.of());

    private HeadersDocument() {
    }

    /** The stored document of {@code headers}; null when there are none. */
    public static String toJson(Map<String, String> headers) {
        if (headers.isEmpty()) {
            return null;
        }
        StringWriter text = new StringWriter();
        try (JsonWriter writer = WRITERS.createWriter(text)) {
            writer.write(toObject(headers));
        }
        return text.toString();
    }

    /** {@code headers} as a JSON object, for the operator surfaces. */
    public static JsonObject toObject(Map<String, String> headers) {
        JsonObjectBuilder document = BUILDERS.createObjectBuilder();
        headers.forEach(document::add);
        return document.build();
    }

    /**
     * The headers of a stored document; empty for null. Values that are not text (never written) are skipped. Read
     * with the streaming parser: every traced message carries headers, so this runs once per delivery.
     */
    public static Map<String, String> fromJson(String json) {
        if (json == null) {
            return Map.of();
        }
        Map<String, String> headers = new HashMap<>();
        try (JsonParser parser = PARSERS.createParser(new StringReader(json))) {
            parser.next();
            String name = null;
            while (parser.hasNext()) {
                switch (parser.next()) {
                    case KEY_NAME -> name = parser.getString();
                    case VALUE_STRING -> headers.put(name, parser.getString());
                    case START_OBJECT -> parser.skipObject();
                    case START_ARRAY -> parser.skipArray();
                    default -> {
                    }
                }
            }
        }
        return Collections.unmodifiableMap(headers);
    }
}
