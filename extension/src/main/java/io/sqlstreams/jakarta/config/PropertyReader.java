package io.sqlstreams.jakarta.config;

import java.util.Collection;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * Reads single keys from MicroProfile Config as text and parses them with their declaration's kind. Keys
 * are looked up one by one (never only through {@link Config#getPropertyNames()}), so environment
 * variables, which a config source lists under their own spelling, are found too.
 */
final class PropertyReader {
    private final Config config;
    private final ProblemLog problems;

    PropertyReader(Config config, ProblemLog problems) {
        this.config = config;
        this.problems = problems;
    }

    /** Whether {@code key} has a value as written, even one whose expressions do not expand. */
    boolean isSet(String key) {
        String raw = config.getConfigValue(key).getRawValue();
        return raw != null && !raw.isEmpty();
    }

    /**
     * The value under {@code key}; empty when it is unset, or when it is rejected, which is logged as a
     * problem of the {@code affected} groups.
     */
    <D, T> Optional<BoundValue<D, T>> read(PropertyDeclaration<D, T> declaration, String key,
                                           Collection<GroupAddress> affected) {
        ConfigValue found = config.getConfigValue(key);
        String raw = found.getRawValue();
        if (raw == null || raw.isEmpty()) {
            return Optional.empty();
        }
        // Config.getOptionalValue would report an expression that does not expand as no value at all
        String text = found.getValue();
        if (text == null || text.isEmpty()) {
            problems.invalid(key, "'" + raw + "' expands to no value (check the properties its expressions name)",
                    affected);
            return Optional.empty();
        }
        try {
            return Optional.of(new BoundValue<>(declaration, key, declaration.kind().parse(text)));
        } catch (RejectedValueException rejected) {
            problems.invalid(key, "'" + text + "' " + rejected.getMessage(), affected);
            return Optional.empty();
        }
    }
}
