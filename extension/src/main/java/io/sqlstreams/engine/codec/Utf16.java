package io.sqlstreams.engine.codec;

/**
 * Well-formed UTF-16: every surrogate in its pair. A lone surrogate has no UTF-8 form, so PostgreSQL's driver
 * would write a '?' in its place and the stored text would silently differ from what was given.
 */
public final class Utf16 {
    private Utf16() {
    }

    public static boolean wellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
