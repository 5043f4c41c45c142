package io.sqlstreams.sample.orders;

import java.io.StringReader;
import java.util.List;

import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import jakarta.json.stream.JsonParsingException;

/**
 * Refuses JSON text whose arrays and objects nest deeper than {@value #MAX_DEPTH} levels, the top one counting as
 * the first. It only walks the parser's events and stops at the first level too many, so the text is checked before
 * anything builds it: building a {@code JsonValue} recurses once per level, and 1,000 nested {@code [} (1 KB)
 * overflow a thread's stack. An order is one flat object, so no valid one comes near the limit.
 */
final class NestingLimit {
    static final int MAX_DEPTH = 32;

    private NestingLimit() {
    }

    /**
     * Walks the text's first value; what follows it is left to the caller's parse.
     *
     * @throws InvalidOrderException when the value nests deeper than {@value #MAX_DEPTH} levels
     * @throws JsonParsingException  when the text is malformed before that
     */
    static void check(JsonParserFactory parsers, String text) {
        try (JsonParser parser = parsers.createParser(new StringReader(text))) {
            int depth = 0;
            do {
                depth += switch (parser.next()) {
                    case START_ARRAY, START_OBJECT -> 1;
                    case END_ARRAY, END_OBJECT -> -1;
                    default -> 0;
                };
                if (depth > MAX_DEPTH) {
                    throw new InvalidOrderException(List.of("the body nests deeper than " + MAX_DEPTH + " levels"));
                }
            } while (depth > 0);
        }
    }
}
