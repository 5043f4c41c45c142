package io.sqlstreams.engine;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidNameException;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.codec.Utf16;

/** The naming rules for streams, consumer groups and message keys. */
public final class Names {
    /** Stream and group names: letters, digits, '.', '_' and '-', starting with a letter, digit or '_'. */
    public static final Pattern RESOURCE_NAME = Pattern.compile("^[A-Za-z0-9_][A-Za-z0-9_.\\-]{0,199}$");
    public static final String SYSTEM_PREFIX = "__system.";
    private static final int MAX_KEY_BYTES = 1024;

    private Names() {
    }

    /** A stream name a user may register: the resource rule, outside the reserved {@code __system.} prefix. */
    public static String userStream(String name) {
        String checked = resource("stream", name);
        if (checked.startsWith(SYSTEM_PREFIX)) {
            throw new SqlStreamsException(Code.SQL0009, "stream name " + Quoting.quote(name)
                    + " uses the reserved prefix " + SYSTEM_PREFIX);
        }
        return checked;
    }

    /** A stream or group name that follows {@link #RESOURCE_NAME}. */
    public static String resource(String kind, String name) {
        if (name == null || !RESOURCE_NAME.matcher(name).matches()) {
            throw new InvalidNameException(kind, name, "must be 1 to 200 characters of letters, digits, '.', '_' or"
                    + " '-', starting with a letter, digit or '_'");
        }
        return name;
    }

    /**
     * A message or routing key: any text of 1 to 1024 bytes in UTF-8 without control characters (keys are
     * indexed, and an index entry has a size limit). A lone UTF-16 surrogate has no UTF-8 form (it would be
     * stored as '?'), so it is refused too. Keys are values, never identifiers, so quotes and semicolons are
     * fine.
     */
    public static String key(String kind, String key) {
        if (key == null || key.isEmpty() || key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES
                || key.chars().anyMatch(Character::isISOControl) || !Utf16.wellFormed(key)) {
            throw new InvalidNameException(kind, key == null || key.length() <= 64 ? key : key.substring(0, 64) + "…",
                    "must be 1 to " + MAX_KEY_BYTES + " bytes of UTF-8 without control characters or lone surrogates");
        }
        return key;
    }
}
