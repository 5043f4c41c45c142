package io.sqlstreams.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.sqlstreams.Code;

/**
 * Writes the engine's diagnostic lines. Each line starts with its code and goes out at the code's level.
 * Repeats of the same warning text are collapsed within a one-minute window, counting what was held back.
 */
public final class Diagnostics {
    private static final Duration COLLAPSE_WINDOW = Duration.ofMinutes(1);

    private final System.Logger logger;
    private final Clock clock;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    public Diagnostics(System.Logger logger, Clock clock) {
        this.logger = logger;
        this.clock = clock;
    }

    public System.Logger logger() {
        return logger;
    }

    /** Logs {@code code}'s event with {@code detail}; warnings repeated within a minute are collapsed. */
    public void event(Code code, String detail) {
        if (!logger.isLoggable(code.level())) {
            return;
        }
        String line = code.id() + " " + detail;
        if (code.level() != System.Logger.Level.WARNING) {
            logger.log(code.level(), line);
            return;
        }
        Instant now = clock.instant();
        Window window = windows.compute(line, (key, previous) -> previous == null || previous.expired(now)
                ? new Window(now.plus(COLLAPSE_WINDOW), 0, true)
                : new Window(previous.until(), previous.suppressed() + 1, false));
        if (window.emit()) {
            logger.log(code.level(), line);
        }
    }

    /** Logs an informational line that has no code of its own (progress, settings). */
    public void info(String line) {
        logger.log(System.Logger.Level.INFO, line);
    }

    private record Window(Instant until, int suppressed, boolean emit) {
        boolean expired(Instant now) {
            return !now.isBefore(until);
        }
    }
}
