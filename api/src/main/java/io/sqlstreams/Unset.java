package io.sqlstreams;

import java.time.Duration;

/**
 * The reference treats a zero value as "unset: the next layer decides". Records normalise zero to
 * {@code null} so that zero and absent compare, fill and serialise alike.
 */
final class Unset {
    private Unset() {
    }

    static Duration ifZero(Duration value) {
        return value == null || value.isZero() ? null : value;
    }

    static Integer ifZero(Integer value) {
        return value == null || value == 0 ? null : value;
    }

    static Long ifZero(Long value) {
        return value == null || value == 0L ? null : value;
    }

    static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
