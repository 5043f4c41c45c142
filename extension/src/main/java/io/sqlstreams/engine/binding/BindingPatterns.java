package io.sqlstreams.engine.binding;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import io.sqlstreams.InvalidConfigurationException;

/**
 * The routing pattern language: {@code *} matches any run of characters, dots included; everything else is
 * literal; a pattern matches the whole routing key. A pattern becomes a POSIX regular expression for
 * PostgreSQL's {@code ~}: each literal piece escaped, pieces joined with {@code .*}, anchored at both ends.
 */
public final class BindingPatterns {
    private static final String POSIX_SPECIALS = "\\^$.|?*+()[]{}";

    private BindingPatterns() {
    }

    /**
     * The declared set as stored and compared: sorted, without duplicates.
     *
     * @throws InvalidConfigurationException (SQL0108) naming every empty pattern
     */
    public static List<String> normalize(List<String> patterns) {
        List<InvalidConfigurationException.Violation> violations = new ArrayList<>();
        for (int i = 0; i < patterns.size(); i++) {
            String pattern = patterns.get(i);
            if (pattern == null || pattern.isEmpty()) {
                violations.add(new InvalidConfigurationException.Violation("bindings[" + i + "]", pattern,
                        "must not be empty"));
            }
        }
        if (!violations.isEmpty()) {
            throw new InvalidConfigurationException(violations);
        }
        return List.copyOf(new TreeSet<>(patterns));
    }

    /** The anchored POSIX regular expression of one pattern. */
    public static String regex(String pattern) {
        StringBuilder regex = new StringBuilder("^");
        for (char c : pattern.toCharArray()) {
            if (c == '*') {
                regex.append(".*");
            } else {
                if (POSIX_SPECIALS.indexOf(c) >= 0) {
                    regex.append('\\');
                }
                regex.append(c);
            }
        }
        return regex.append('$').toString();
    }
}
