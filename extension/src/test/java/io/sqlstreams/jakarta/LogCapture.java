package io.sqlstreams.jakarta;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The lines the library writes to its default logger ({@code io.sqlstreams}) while the capture is open. */
final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("io.sqlstreams");
    private final List<String> lines = new CopyOnWriteArrayList<>();

    LogCapture() {
        logger.addHandler(this);
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    /** The lines that start with {@code code}. */
    List<String> withCode(String code) {
        return lines.stream().filter(line -> line.startsWith(code + " ")).toList();
    }

    @Override
    public void publish(LogRecord record) {
        lines.add(record.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
