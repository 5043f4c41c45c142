package io.sqlstreams.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.sqlstreams.Code;

/**
 * Writes the library's log lines, and is the only class that does: each line is {@code SQLnnnn <detail>}, so an
 * operator can look any line up in the {@link Code} catalogue. An event goes out at its code's level; an error
 * code's line at ERROR. Repeats of the same warning text are collapsed within a one-minute window.
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

    /**
     * Logs a DEBUG line under {@code code}: an event whose level is DEBUG, or an error the library absorbs and
     * reports only for debugging. {@code detail} is built only when DEBUG is enabled.
     */
    public void debug(Code code, Supplier<String> detail) {
        if (code.kind() == Code.Kind.EVENT && code.level() != System.Logger.Level.DEBUG) {
            throw new IllegalArgumentException(code.id() + " is an event logged at " + code.level()
                    + ", not at DEBUG");
        }
        logger.log(System.Logger.Level.DEBUG, () -> code.id() + " " + detail.get());
    }

    private record Window(Instant until, int suppressed, boolean emit) {
        boolean expired(Instant now) {
            return !now.isBefore(until);
        }
    }
}
