package io.sqlstreams;

import java.util.List;
import java.util.stream.Collectors;

/**
 * SQL0108: one or more configuration values break their rules. {@link #violations()} lists every
 * one of them, not just the first, so a deployment can be corrected in one pass.
 */
public class InvalidConfigurationException extends SqlStreamsException {
    private static final long serialVersionUID = 1L;

    private final List<Violation> violations;

    public InvalidConfigurationException(List<Violation> violations) {
        super(Code.SQL0108, "invalid configuration: " + describe(violations));
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }

    private static String describe(List<Violation> violations) {
        return violations.stream().map(Violation::toString).collect(Collectors.joining("; "));
    }

    /**
     * One broken rule: the dotted property path (for example {@code consumeOptions.queueSize}), the
     * value as given, and the rule it breaks.
     */
    public record Violation(String property, Object value, String rule) {
        @Override
        public String toString() {
            return property + " = " + value + ": " + rule;
        }
    }
}
