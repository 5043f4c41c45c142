package io.sqlstreams.cli;

import java.io.PrintWriter;
import java.text.MessageFormat;
import java.time.Instant;
import java.util.ResourceBundle;

/**
 * The library's log lines at {@code minimum} and above, each on one line of {@code err}: its time, its level, then
 * the line as the library wrote it (its code first). Every command of the tool logs through one of these.
 */
final class StderrLogger implements System.Logger {
    private final PrintWriter err;
    private final Level minimum;

    StderrLogger(PrintWriter err, Level minimum) {
        this.err = err;
        this.minimum = minimum;
    }

    @Override
    public String getName() {
        return "io.sqlstreams";
    }

    @Override
    public boolean isLoggable(Level level) {
        return level != Level.OFF && level.getSeverity() >= minimum.getSeverity();
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
        if (isLoggable(level)) {
            write(level, thrown == null ? message : message + " (" + thrown + ")");
        }
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        if (isLoggable(level)) {
            write(level, params == null || params.length == 0 ? format : MessageFormat.format(format, params));
        }
    }

    private synchronized void write(Level level, String line) {
        err.println(Instant.now() + " " + level.getName() + " " + line);
        err.flush();
    }
}
