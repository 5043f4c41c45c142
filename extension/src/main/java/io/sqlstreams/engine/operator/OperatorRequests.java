package io.sqlstreams.engine.operator;

import java.io.StringWriter;

import io.sqlstreams.Code;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.PageRequest;
import io.sqlstreams.SqlStreamsException;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonWriter;

/** Checks what operator verbs are given (SQL0152) and writes a filter as the JSON its audit row keeps. */
final class OperatorRequests {
    static final int MAX_ACTOR = 200;

    private OperatorRequests() {
    }

    static DeadLetterFilter check(DeadLetterFilter filter) {
        if (filter == null) {
            throw invalid("a dead-letter filter is required; DeadLetterFilter.all() selects every dead letter");
        }
        positive("fromId", filter.fromId());
        positive("toId", filter.toId());
        if (filter.fromId() != null && filter.toId() != null && filter.fromId() > filter.toId()) {
            throw invalid("the id range " + filter.fromId() + ".." + filter.toId() + " is empty: its lower end is"
                    + " above its upper end");
        }
        text("messageKey", filter.messageKey());
        text("errorContains", filter.errorContains());
        if (filter.messageIds().size() > DeadLetterFilter.MAX_MESSAGE_IDS) {
            throw invalid("a selection names at most " + DeadLetterFilter.MAX_MESSAGE_IDS + " message ids; this one"
                    + " names " + filter.messageIds().size());
        }
        filter.messageIds().forEach(id -> positive("a selected message id", id));
        return filter;
    }

    static PageRequest check(PageRequest page) {
        if (page == null) {
            throw invalid("a page request is required, such as PageRequest.first(50)");
        }
        limit(page.limit());
        positive("beforeId", page.beforeId());
        return page;
    }

    static int limit(int limit) {
        if (limit < 1 || limit > PageRequest.MAX_LIMIT) {
            throw invalid("a limit must be from 1 to " + PageRequest.MAX_LIMIT + "; got " + limit);
        }
        return limit;
    }

    /** The actor as given, or {@code fallback} (the client's identity) when none is given. */
    static String actor(String given, String fallback) {
        if (given == null) {
            return fallback;
        }
        if (given.isBlank() || given.length() > MAX_ACTOR || given.chars().anyMatch(Character::isISOControl)) {
            throw invalid("an actor must be 1 to " + MAX_ACTOR + " characters with no control characters");
        }
        return given;
    }

    /** The parts of the filter that are set, as a JSON object. */
    static String json(DeadLetterFilter filter) {
        JsonObjectBuilder object = Json.createObjectBuilder();
        if (filter.fromId() != null) {
            object.add("from_id", filter.fromId());
        }
        if (filter.toId() != null) {
            object.add("to_id", filter.toId());
        }
        if (filter.messageKey() != null) {
            object.add("message_key", filter.messageKey());
        }
        if (filter.errorContains() != null) {
            object.add("error_contains", filter.errorContains());
        }
        if (filter.deadSince() != null) {
            object.add("dead_since", filter.deadSince().toString());
        }
        if (!filter.messageIds().isEmpty()) {
            JsonArrayBuilder ids = Json.createArrayBuilder();
            filter.messageIds().forEach(ids::add);
            object.add("message_ids", ids);
        }
        StringWriter text = new StringWriter();
        try (JsonWriter writer = Json.createWriter(text)) {
            writer.writeObject(object.build());
        }
        return text.toString();
    }

    private static void positive(String part, Long id) {
        if (id != null && id < 1) {
            throw invalid(part + " must be a message id of 1 or more; got " + id);
        }
    }

    private static void text(String part, String value) {
        if (value == null) {
            return;
        }
        if (value.length() > DeadLetterFilter.MAX_TEXT) {
            throw invalid(part + " holds " + value.length() + " characters; at most " + DeadLetterFilter.MAX_TEXT);
        }
        if (value.indexOf('\0') >= 0) {
            throw invalid(part + " holds a NUL character, which PostgreSQL text cannot store");
        }
    }

    private static SqlStreamsException invalid(String detail) {
        return new SqlStreamsException(Code.SQL0152, detail);
    }
}
