package io.sqlstreams.engine.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;

class BindingPatternsTest {

    @Test
    void patternsBecomeAnchoredRegexesWithLiteralsEscaped() {
        assertThat(BindingPatterns.regex("orders.*.created")).isEqualTo("^orders\\..*\\.created$");
        assertThat(BindingPatterns.regex("a+b(c)[d]{e}|f?^$\\")).isEqualTo("^a\\+b\\(c\\)\\[d\\]\\{e\\}\\|f\\?\\^\\$\\\\$");
        assertThat(BindingPatterns.regex("*")).isEqualTo("^.*$");
    }

    @Test
    void setsAreSortedAndDeduplicated() {
        assertThat(BindingPatterns.normalize(List.of("b.*", "a", "b.*"))).containsExactly("a", "b.*");
    }

    @Test
    void everyEmptyPatternIsReported() {
        assertThatThrownBy(() -> BindingPatterns.normalize(Arrays.asList("ok", "", null)))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(Code.SQL0108);
                    assertThat(failure.violations()).extracting(InvalidConfigurationException.Violation::property)
                            .containsExactly("bindings[1]", "bindings[2]");
                });
    }
}
