package io.sqlstreams.jakarta.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sqlstreams.Concurrency;
import io.sqlstreams.Start;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ValueKindsTest {

    @ParameterizedTest
    @CsvSource({"500ms, PT0.5S", "10s, PT10S", "5m, PT5M", "1h, PT1H", "1h30m, PT1H30M", "PT10S, PT10S",
            "pt2m, PT2M", "' 10s ', PT10S", "0, PT0S", "-5s, PT-5S"})
    void durationsAcceptGoAndIsoSpellings(String text, String expected) throws Exception {
        assertThat(ValueKinds.DURATION.parse(text)).isEqualTo(Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"10x", "10", "ten seconds", "10 s", "P", "10s;", "", "9999999999h"})
    void durationsRejectEverythingElse(String text) {
        assertThatThrownBy(() -> ValueKinds.DURATION.parse(text)).isInstanceOf(RejectedValueException.class)
                .hasMessageContaining("must");
    }

    @ParameterizedTest
    @ValueSource(strings = {"4.0", "four", "2147483648", "", "1e3", "0x10"})
    void wholeNumbersRejectFractionsWordsAndOverflow(String text) {
        assertThatThrownBy(() -> ValueKinds.WHOLE_NUMBER.parse(text))
                .hasMessage("must be a whole number up to 2147483647, such as 8");
    }

    @Test
    void wholeNumbersKeepTheirSign() throws Exception {
        assertThat(ValueKinds.WHOLE_NUMBER.parse(" 8 ")).isEqualTo(8);
        assertThat(ValueKinds.WHOLE_NUMBER.parse("-1")).isEqualTo(-1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "no", "on", "1", "0", "t", ""})
    void booleansRejectOtherSpellings(String text) {
        assertThatThrownBy(() -> ValueKinds.BOOLEAN.parse(text)).hasMessage("must be true or false");
    }

    @Test
    void booleansAcceptTrueAndFalseInAnyCase() throws Exception {
        assertThat(ValueKinds.BOOLEAN.parse("TRUE")).isTrue();
        assertThat(ValueKinds.BOOLEAN.parse(" false")).isFalse();
    }

    @Test
    void enumsTakeTheirWireNamesInAnyCase() throws Exception {
        assertThat(ValueKinds.wireNamed(Concurrency.class).parse("Ordered")).isEqualTo(Concurrency.ORDERED);
        assertThat(ValueKinds.wireNamed(Start.class).parse("head")).isEqualTo(Start.HEAD);
        assertThatThrownBy(() -> ValueKinds.wireNamed(Concurrency.class).parse("serial"))
                .hasMessage("must be one of [parallel, exclusive, ordered]");
    }

    @Test
    void patternsSplitOnUnescapedCommasAndKeepEverythingElseLiterally() throws Exception {
        assertThat(ValueKinds.PATTERNS.parse(" orders.* , refunds.eu")).containsExactly("orders.*", "refunds.eu");
        assertThat(ValueKinds.PATTERNS.parse("a\\,b,c")).containsExactly("a,b", "c");
        assertThat(ValueKinds.PATTERNS.parse("o'brien;--")).isEqualTo(List.of("o'brien;--"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"a,,b | 2", "a, | 2", ",a | 1", "' ' | 1"})
    void anEmptyPatternIsRejectedWithItsPosition(String text, int position) {
        assertThatThrownBy(() -> ValueKinds.PATTERNS.parse(text))
                .hasMessage("must not contain an empty pattern (pattern " + position + ")");
    }

    @Test
    void textMustNotBeBlank() throws Exception {
        assertThat(ValueKinds.TEXT.parse(" java:app/exec ")).isEqualTo("java:app/exec");
        assertThatThrownBy(() -> ValueKinds.TEXT.parse("   ")).hasMessage("must not be blank");
    }
}
