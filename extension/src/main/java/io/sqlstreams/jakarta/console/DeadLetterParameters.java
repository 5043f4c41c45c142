package io.sqlstreams.jakarta.console;

import io.sqlstreams.Code;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.PageRequest;
import io.sqlstreams.SqlStreamsException;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The dead-letter selection and paging of a request, from its query parameters: {@code from_id}, {@code to_id},
 * {@code key}, {@code error}, {@code dead_since} (ISO-8601 instant), {@code id} (repeated or comma-separated),
 * {@code limit} and {@code before_id}. Text that is not a number or an instant is SQL0152; the ranges are the
 * engine's to check.
 */
final class DeadLetterParameters {
    static final int DEFAULT_LIMIT = 50;

    private final HttpServletRequest request;

    DeadLetterParameters(HttpServletRequest request) {
        this.request = request;
    }

    DeadLetterFilter filter() {
        return DeadLetterFilter.all()
                .idRange(number("from_id"), number("to_id"))
                .key(request.getParameter("key"))
                .errorContaining(request.getParameter("error"))
                .deadSince(instant("dead_since"))
                .ids(ids());
    }

    PageRequest page() {
        return new PageRequest(limit(DEFAULT_LIMIT), number("before_id"));
    }

    int limit(int byDefault) {
        Long limit = number("limit");
        if (limit == null) {
            return byDefault;
        }
        if (limit > Integer.MAX_VALUE || limit < Integer.MIN_VALUE) {
            throw invalid("limit", String.valueOf(limit), "a whole number from 1 to " + PageRequest.MAX_LIMIT);
        }
        return limit.intValue();
    }

    boolean dryRun() {
        return "true".equals(request.getParameter("dry_run"));
    }

    private Set<Long> ids() {
        String[] values = request.getParameterValues("id");
        Set<Long> ids = new LinkedHashSet<>();
        if (values != null) {
            Arrays.stream(values).flatMap(value -> Arrays.stream(value.split(",")))
                    .forEach(id -> ids.add(parseNumber("id", id.strip())));
        }
        return ids;
    }

    private Long number(String name) {
        String value = request.getParameter(name);
        return value == null || value.isEmpty() ? null : parseNumber(name, value);
    }

    /** {@code value} of the parameter or path segment {@code name} as a whole number, else SQL0152. */
    static Long parseNumber(String name, String value) {
        try {
            return Long.valueOf(value);
        } catch (NumberFormatException malformed) {
            throw invalid(name, value, "a whole number");
        }
    }

    private Instant instant(String name) {
        String value = request.getParameter(name);
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException malformed) {
            throw invalid(name, value, "an ISO-8601 instant such as 2026-01-31T12:00:00Z");
        }
    }

    private static SqlStreamsException invalid(String name, String value, String expected) {
        String shown = value.length() > 40 ? value.substring(0, 40) + "…" : value;
        return new SqlStreamsException(Code.SQL0152, name + " must be " + expected + ", not \"" + shown + "\"");
    }
}
