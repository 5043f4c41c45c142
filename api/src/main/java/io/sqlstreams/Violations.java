package io.sqlstreams;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Collects every broken rule of one validation pass, then throws them together. */
final class Violations {
    private final List<InvalidConfigurationException.Violation> found = new ArrayList<>();

    void add(String property, Object value, String rule) {
        found.add(new InvalidConfigurationException.Violation(property, value, rule));
    }

    void require(boolean holds, String property, Object value, String rule) {
        if (!holds) {
            add(property, value, rule);
        }
    }

    void notNegative(String property, Duration value) {
        require(value == null || !value.isNegative(), property, value, "must not be negative");
    }

    void notNegative(String property, Integer value) {
        require(value == null || value >= 0, property, value, "must not be negative");
    }

    /** At most {@code bound}; an absent value passes. */
    void atMost(String property, Duration value, Duration bound) {
        require(value == null || value.compareTo(bound) <= 0, property, value,
                "must be at most " + bound + " (" + bound.toDays() + " days)");
    }

    /** A timeout, margin, interval or delay: not negative and at most {@link Limits#LONGEST_TIMING}. */
    void timing(String property, Duration value) {
        notNegative(property, value);
        atMost(property, value, Limits.LONGEST_TIMING);
    }

    /** How long a stream keeps something: not negative and at most {@link Limits#LONGEST_AGE}. */
    void age(String property, Duration value) {
        notNegative(property, value);
        atMost(property, value, Limits.LONGEST_AGE);
    }

    /** A floor not above its ceiling; as in clamping, an absent, zero or negative ceiling does not constrain. */
    void notAbove(String property, Duration floor, String ceilingProperty, Duration ceiling) {
        boolean positive = ceiling != null && !ceiling.isNegative() && !ceiling.isZero();
        notAbove(property, floor, ceilingProperty, ceiling, positive);
    }

    void notAbove(String property, Integer floor, String ceilingProperty, Integer ceiling) {
        notAbove(property, floor, ceilingProperty, ceiling, ceiling != null && ceiling > 0);
    }

    private <T extends Comparable<T>> void notAbove(String property, T floor, String ceilingProperty, T ceiling,
                                                    boolean constrains) {
        require(floor == null || !constrains || floor.compareTo(ceiling) <= 0, property, floor,
                "must not be above its ceiling " + ceilingProperty + " (" + ceiling + ")");
    }

    /** Text that UTF-8 can carry and a key can hold: no control character and no lone UTF-16 surrogate. */
    static boolean storableText(String text) {
        return text.chars().noneMatch(Character::isISOControl)
                && StandardCharsets.UTF_8.newEncoder().canEncode(text);
    }

    void atLeast(String property, Integer value, int minimum) {
        require(value == null || value >= minimum, property, value, "must be at least " + minimum);
    }

    static InvalidConfigurationException single(String property, Object value, String rule) {
        return new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(property, value, rule)));
    }

    void throwIfAny() {
        if (!found.isEmpty()) {
            throw new InvalidConfigurationException(found);
        }
    }
}
