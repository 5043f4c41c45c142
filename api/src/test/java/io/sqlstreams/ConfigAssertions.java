package io.sqlstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.function.Executable;

/** Shared checks for the SQL0108 validation contract: one exception listing every broken rule. */
final class ConfigAssertions {
    private ConfigAssertions() {
    }

    /** Runs {@code action}, expects SQL0108, and returns the exception for further checks. */
    static InvalidConfigurationException invalid(Executable action) {
        InvalidConfigurationException thrown = assertThrows(InvalidConfigurationException.class, action);
        assertThat(thrown.code()).isEqualTo(Code.SQL0108);
        assertThat(thrown.isTransient()).isFalse();
        assertThat(thrown.getMessage()).startsWith("SQL0108 ");
        return thrown;
    }

    /** The property paths of every violation, in reporting order. */
    static List<String> properties(InvalidConfigurationException thrown) {
        return thrown.violations().stream().map(InvalidConfigurationException.Violation::property).toList();
    }

    /** Expects SQL0108 with exactly these property paths (any order, duplicates counted). */
    static InvalidConfigurationException assertViolations(Executable action, String... expectedProperties) {
        InvalidConfigurationException thrown = invalid(action);
        assertThat(properties(thrown)).as("violations of %s", thrown.violations())
                .containsExactlyInAnyOrder(expectedProperties);
        return thrown;
    }
}
