package io.sqlstreams.jakarta.config;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidConfigurationException.Violation;
import io.sqlstreams.engine.codec.DurationText;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Turns the violations the API's own validation finds in a bound group into problems naming the key to
 * correct: the key that supplied the value, else the group's key for that property.
 */
final class ViolationProblems {
    private static final Pattern LIST_INDEX = Pattern.compile("\\[\\d+]");
    private static final Pattern WORD_START = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])");

    private final ProblemLog problems;

    ViolationProblems(ProblemLog problems) {
        this.problems = problems;
    }

    /**
     * @param suppliedBy    the key each property of the group was read from, by property name
     * @param keyOfProperty the key to name, by property name, when no key supplied the value
     */
    void report(InvalidConfigurationException invalid, GroupAddress address, UnaryOperator<String> keyOfProperty,
                Map<String, String> suppliedBy) {
        for (Violation violation : invalid.violations()) {
            String property = propertyName(violation.property());
            String key = suppliedBy.getOrDefault(property, keyOfProperty.apply(property));
            problems.invalid(key, "for group \"" + address.group() + "\" on stream \"" + address.stream() + "\": "
                    + shown(violation.value()) + " " + violation.rule(), List.of(address));
        }
    }

    /** {@code messageMin.retry.maxRetries} as a property name: {@code message-min.retry.max-retries}. */
    static String propertyName(String javaPath) {
        String withoutIndex = LIST_INDEX.matcher(javaPath).replaceAll("");
        return WORD_START.matcher(withoutIndex).replaceAll("-").toLowerCase(Locale.ROOT);
    }

    private static String shown(Object value) {
        return value instanceof Duration duration ? DurationText.format(duration) : String.valueOf(value);
    }
}
