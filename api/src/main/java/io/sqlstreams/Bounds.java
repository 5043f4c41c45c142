package io.sqlstreams;

import java.time.Duration;

/** Positive-bound clamping: a zero, negative or absent bound does not constrain, an absent value stays absent. */
final class Bounds {
    private Bounds() {
    }

    static Duration clamp(Duration value, Duration minimum, Duration maximum) {
        if (value == null) {
            return null;
        }
        Duration bounded = value;
        if (isPositive(minimum) && bounded.compareTo(minimum) < 0) {
            bounded = minimum;
        }
        if (isPositive(maximum) && bounded.compareTo(maximum) > 0) {
            bounded = maximum;
        }
        return bounded;
    }

    static Integer clamp(Integer value, Integer minimum, Integer maximum) {
        if (value == null) {
            return null;
        }
        int bounded = value;
        if (minimum != null && minimum > 0 && bounded < minimum) {
            bounded = minimum;
        }
        if (maximum != null && maximum > 0 && bounded > maximum) {
            bounded = maximum;
        }
        return bounded;
    }

    private static boolean isPositive(Duration bound) {
        return bound != null && !bound.isNegative() && !bound.isZero();
    }
}
