package io.sqlstreams.sample.web;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An error the engine recorded, as the public API shows it: one line of code and message, never a stack trace.
 * The engine records a coded library error as its message ({@code SQL0055 the card … was declined}) and any other
 * exception as its whole stack trace, whose first line is the exception's class and message: that line is kept,
 * without the class.
 */
final class PublicError {
    static final int MAX_LENGTH = 240;

    /** The class name that starts a stack trace's first line, followed by ": " and the message, if it has one. */
    private static final Pattern THROWABLE_CLASS = Pattern.compile(
            "((?:[\\p{L}_$][\\p{L}\\p{N}_$]*\\.)+([\\p{L}_$][\\p{L}\\p{N}_$]*))(?:: |$)");

    private PublicError() {
    }

    /** @return null for null */
    static String of(String recorded) {
        if (recorded == null) {
            return null;
        }
        String firstLine = recorded.strip().lines().findFirst().orElse("").strip();
        Matcher named = THROWABLE_CLASS.matcher(firstLine);
        if (named.lookingAt()) {
            String message = firstLine.substring(named.end()).strip();
            firstLine = message.isEmpty() ? named.group(2) : message;
        }
        return bounded(firstLine);
    }

    private static String bounded(String line) {
        if (line.length() <= MAX_LENGTH) {
            return line;
        }
        int end = Character.isHighSurrogate(line.charAt(MAX_LENGTH - 1)) ? MAX_LENGTH - 1 : MAX_LENGTH;
        return line.substring(0, end) + "…";
    }
}
