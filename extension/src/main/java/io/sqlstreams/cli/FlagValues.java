package io.sqlstreams.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.engine.codec.DurationText;

/**
 * Option values typed as text and parsed here, or checked here, so a bad one is SQL0108 naming its flag (exit 2)
 * rather than picocli's own complaint. An absent flag reads as null: the library's default.
 */
final class FlagValues {
    private FlagValues() {
    }

    static Duration duration(String flag, String text) {
        return text == null ? null : DurationText.parse(flag, text);
    }

    /** An ISO-8601 instant such as {@code 2026-12-03T17:00:00Z}; SQL0108 naming {@code flag} for anything else. */
    static Instant instant(String flag, String text) {
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException notAnInstant) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(flag, text,
                    "must be an ISO-8601 instant such as 2026-12-03T17:00:00Z")));
        }
    }

    /** SQL0108 naming {@code flag} unless {@code value} is at least 1. */
    static void positive(String flag, int value) {
        if (value < 1) {
            throw new InvalidConfigurationException(List.of(
                    new InvalidConfigurationException.Violation(flag, value, "must be positive")));
        }
    }

    static Long wholeNumber(String flag, String text) {
        if (text == null) {
            return null;
        }
        try {
            return Long.valueOf(text.strip());
        } catch (NumberFormatException notANumber) {
            throw new InvalidConfigurationException(List.of(
                    new InvalidConfigurationException.Violation(flag, text, "must be a whole number")));
        }
    }
}
