package io.sqlstreams.testing;

import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sqlstreams.Code;

/**
 * A {@link System.Logger} that keeps every line, so tests can assert which diagnostic codes were logged. A line
 * that does not start with a catalogued code, or is written at another level than its code's, is also kept as a
 * violation, across every instance, for {@link EveryLineCoded} to fail the test that produced it.
 */
public final class RecordingLogger implements System.Logger {
    private static final Pattern CODE_PREFIX = Pattern.compile("(SQL[0-9]{4}) .*", Pattern.DOTALL);
    private static final List<Line> VIOLATIONS = new CopyOnWriteArrayList<>();

    private final List<Line> lines = new CopyOnWriteArrayList<>();

    @Override
    public String getName() {
        return "recording";
    }

    @Override
    public boolean isLoggable(Level level) {
        return true;
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
        record(new Line(level, message));
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        record(new Line(level, params == null || params.length == 0 ? format : MessageFormat.format(format, params)));
    }

    @Override
    public void log(Level level, Supplier<String> message) {
        record(new Line(level, message.get()));
    }

    private void record(Line line) {
        lines.add(line);
        if (!line.wellCoded()) {
            VIOLATIONS.add(line);
        }
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** The lines that start with {@code code}, such as {@code "SQL0061"}. */
    public List<String> withCode(String code) {
        return lines.stream().map(Line::text).filter(text -> text.startsWith(code + " ")).toList();
    }

    /** The badly coded lines any recording logger received since the last call, which forgets them. */
    public static List<Line> takeViolations() {
        List<Line> taken = new ArrayList<>(VIOLATIONS);
        VIOLATIONS.removeAll(taken);
        return taken;
    }

    public record Line(Level level, String text) {
        /** The catalogued code the line starts with, if it starts with one. */
        public Optional<Code> code() {
            Matcher prefix = CODE_PREFIX.matcher(text == null ? "" : text);
            return prefix.matches() ? Code.find(prefix.group(1)) : Optional.empty();
        }

        /**
         * Starts with a catalogued code and is written at that code's level; an error the library absorbs may
         * also be reported at DEBUG.
         */
        public boolean wellCoded() {
            return code().filter(code -> code.level() == level
                    || code.kind() == Code.Kind.ERROR && level == Level.DEBUG).isPresent();
        }

        @Override
        public String toString() {
            return level + " " + text;
        }
    }
}
