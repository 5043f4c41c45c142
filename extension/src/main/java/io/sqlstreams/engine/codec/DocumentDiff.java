package io.sqlstreams.engine.codec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * What changed between two stored JSON documents, as dotted key paths with {@code old -> new}, for example
 * {@code message.retry.max_retries 3 -> 5}, {@code message.timeout (unset) -> 30s} or
 * {@code bindings [] -> ["a.*"]}. Objects present on both sides are compared key by key; anything else (arrays,
 * an object that appears or vanishes, a change of type) is one change of the whole value. An absent key reads
 * {@code (unset)} and stays apart from a JSON {@code null}, so two documents differ exactly when this finds a
 * change.
 */
public final class DocumentDiff {
    private static final String UNSET = "(unset)";
    /** Strings that read unambiguously without quotes: durations, names, times, wire names. */
    private static final Pattern BARE = Pattern.compile("[\\w.:+\\-*]+");
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?");

    /** One changed path; {@code null} on a side means the key is absent there. */
    public record Change(String path, JsonValue before, JsonValue after) {
        @Override
        public String toString() {
            return path + " " + show(before) + " -> " + show(after);
        }
    }

    private DocumentDiff() {
    }

    /** The changes from {@code before} to {@code after}: keys of {@code after} in order, then removed keys. */
    public static List<Change> between(JsonObject before, JsonObject after) {
        List<Change> changes = new ArrayList<>();
        compare("", before, after, changes);
        return changes;
    }

    private static void compare(String prefix, JsonObject before, JsonObject after, List<Change> changes) {
        Set<String> keys = new LinkedHashSet<>(after.keySet());
        keys.addAll(before.keySet());
        for (String key : keys) {
            JsonValue old = before.get(key);
            JsonValue now = after.get(key);
            String path = prefix + key;
            if (old instanceof JsonObject oldObject && now instanceof JsonObject newObject) {
                compare(path + ".", oldObject, newObject, changes);
            } else if (old == null || !old.equals(now)) {
                changes.add(new Change(path, old, now));
            }
        }
    }

    /** A value as a change names it: JSON, except that a plain string goes without quotes. */
    private static String show(JsonValue value) {
        if (value == null) {
            return UNSET;
        }
        if (value instanceof JsonString string && readsBare(string.getString())) {
            return string.getString();
        }
        return value.toString();
    }

    /** Whether the unquoted text cannot be mistaken for a number, a JSON literal or another string. */
    private static boolean readsBare(String text) {
        return BARE.matcher(text).matches() && !NUMBER.matcher(text).matches()
                && !text.equals("true") && !text.equals("false") && !text.equals("null");
    }
}
