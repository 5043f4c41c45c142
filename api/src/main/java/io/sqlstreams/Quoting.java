package io.sqlstreams;

/**
 * How messages echo text a user gave (a stream, group, schema or key name, a code, a filter): quoted and
 * escaped as in a Java string literal, so that whatever the text holds, a one-line message stays one line and
 * the text can be read back exactly. {@code "orders\ncreated"} is echoed as {@code "orders\ncreated"} with a
 * backslash and an {@code n}, never with a line break.
 */
public final class Quoting {
    private Quoting() {
    }

    /**
     * {@code text} in double quotes, with {@code "} and {@code \} escaped by a backslash, {@code \b \t \n \f \r}
     * written as such, and every other control character, line or paragraph separator and lone surrogate as
     * {@code \}{@code uXXXX}; {@code null} (unquoted) for null.
     */
    public static String quote(String text) {
        return text == null ? "null" : '"' + escape(text, true) + '"';
    }

    /**
     * {@code text} with its control characters, line and paragraph separators and lone surrogates escaped as
     * {@link #quote} escapes them, and nothing else changed: a whole message made to print as one line.
     */
    public static String oneLine(String text) {
        return escape(text, false);
    }

    private static String escape(String text, boolean quoted) {
        StringBuilder escaped = new StringBuilder(text.length() + 2);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\b' -> escaped.append("\\b");
                case '\t' -> escaped.append("\\t");
                case '\n' -> escaped.append("\\n");
                case '\f' -> escaped.append("\\f");
                case '\r' -> escaped.append("\\r");
                case '"', '\\' -> escaped.append(quoted ? "\\" : "").append(c);
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1))) {
                        escaped.append(c).append(text.charAt(++i));
                    } else if (Character.isISOControl(c) || Character.isSurrogate(c) || c == '\u2028'
                            || c == '\u2029') {
                        escaped.append(String.format("\\u%04X", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }
}
