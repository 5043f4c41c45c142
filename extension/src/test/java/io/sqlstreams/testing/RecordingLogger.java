package io.sqlstreams.testing;

import java.text.MessageFormat;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/** A {@link System.Logger} that keeps every line, so tests can assert which diagnostic codes were logged. */
public final class RecordingLogger implements System.Logger {
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
        lines.add(new Line(level, message));
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        lines.add(new Line(level, params == null || params.length == 0 ? format : MessageFormat.format(format, params)));
    }

    @Override
    public void log(Level level, Supplier<String> message) {
        lines.add(new Line(level, message.get()));
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** The lines that start with {@code code}, such as {@code "SQL0061"}. */
    public List<String> withCode(String code) {
        return lines.stream().map(Line::text).filter(text -> text.startsWith(code + " ")).toList();
    }

    public record Line(Level level, String text) {
    }
}
