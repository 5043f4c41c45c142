package io.sqlstreams;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules a message's headers follow ({@link ProduceOptions#headers()}, {@link MessageMeta#headers()}): small
 * text attributes carried beside the payload, such as a W3C {@code traceparent}. A header name is 1 to
 * {@value #LONGEST_NAME} characters of ASCII letters, digits, {@code .}, {@code _} and {@code -}, starting with a
 * letter or digit, and case matters; a value is text without control characters. A message carries at most
 * {@value #MOST_HEADERS} headers whose names and values take at most {@value #LARGEST_SIZE} bytes in UTF-8.
 */
public final class MessageHeaders {
    /** The most headers one message carries. */
    public static final int MOST_HEADERS = 32;

    /** The longest header name, in characters. */
    public static final int LONGEST_NAME = 64;

    /** The most bytes one message's header names and values take together, in UTF-8. */
    public static final int LARGEST_SIZE = 8192;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private MessageHeaders() {
    }

    /** An unmodifiable copy that keeps {@code headers}' order (and any null, for {@link #check} to report). */
    static Map<String, String> copyOf(Map<String, String> headers) {
        return headers == null || headers.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /**
     * Checks {@code headers} against every rule.
     *
     * @throws SqlStreamsException SQL0153 naming every header that breaks a rule (never printing a value)
     */
    public static void check(Map<String, String> headers) {
        if (headers.isEmpty()) {
            return;
        }
        List<String> problems = new ArrayList<>();
        if (headers.size() > MOST_HEADERS) {
            problems.add(headers.size() + " headers, more than " + MOST_HEADERS);
        }
        long size = 0;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            String name = header.getKey();
            String value = header.getValue();
            if (name == null || name.length() > LONGEST_NAME || !NAME.matcher(name).matches()) {
                problems.add("name " + Quoting.quote(name) + " is not 1 to " + LONGEST_NAME
                        + " letters, digits, '.', '_' or '-' starting with a letter or digit");
                continue;
            }
            if (value == null) {
                problems.add("header " + Quoting.quote(name) + " has no value");
                continue;
            }
            if (!Violations.storableText(value)) {
                problems.add("header " + Quoting.quote(name) + " has a control character or a lone surrogate in its value");
                continue;
            }
            size += name.length() + value.getBytes(StandardCharsets.UTF_8).length;
        }
        if (size > LARGEST_SIZE) {
            problems.add("names and values take " + size + " bytes, more than " + LARGEST_SIZE);
        }
        if (!problems.isEmpty()) {
            throw new SqlStreamsException(Code.SQL0153, "message headers rejected: " + String.join("; ", problems)
                    + "; nothing was written");
        }
    }
}
