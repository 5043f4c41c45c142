package io.sqlstreams.engine.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidConfigurationException.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Go-style duration text. */
class DurationTextTest {

    private static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);
    private static final Duration MOST_NEGATIVE = Duration.ofNanos(Long.MIN_VALUE);

    private static Violation rejected(String text) {
        InvalidConfigurationException thrown =
                assertThrows(InvalidConfigurationException.class, () -> DurationText.parse("retry.base_delay", text));
        assertThat(thrown.code()).isEqualTo(Code.SQL0108);
        assertThat(thrown.violations()).hasSize(1);
        Violation violation = thrown.violations().get(0);
        assertThat(violation.property()).isEqualTo("retry.base_delay");
        assertThat(violation.value()).isEqualTo(text);
        return violation;
    }

    @Nested
    class Format {

        static Stream<Arguments> goOutputs() {
            return Stream.of(
                    Arguments.of(Duration.ZERO, "0s"),
                    Arguments.of(Duration.ofNanos(1), "1ns"),
                    Arguments.of(Duration.ofNanos(500), "500ns"),
                    Arguments.of(Duration.ofNanos(999), "999ns"),
                    Arguments.of(Duration.ofNanos(1_000), "1µs"),
                    Arguments.of(Duration.ofNanos(1_500), "1.5µs"),
                    Arguments.of(Duration.ofNanos(1_001), "1.001µs"),
                    Arguments.of(Duration.ofNanos(999_999), "999.999µs"),
                    Arguments.of(Duration.ofMillis(1), "1ms"),
                    Arguments.of(Duration.ofMillis(100), "100ms"),
                    Arguments.of(Duration.ofNanos(1_500_000), "1.5ms"),
                    Arguments.of(Duration.ofNanos(999_999_999), "999.999999ms"),
                    Arguments.of(Duration.ofSeconds(1), "1s"),
                    Arguments.of(Duration.ofMillis(1_500), "1.5s"),
                    Arguments.of(Duration.ofSeconds(10), "10s"),
                    Arguments.of(Duration.ofSeconds(1, 1), "1.000000001s"),
                    Arguments.of(Duration.ofSeconds(59), "59s"),
                    Arguments.of(Duration.ofMinutes(1), "1m0s"),
                    Arguments.of(Duration.ofMinutes(5), "5m0s"),
                    Arguments.of(Duration.ofSeconds(61), "1m1s"),
                    Arguments.of(Duration.ofHours(1), "1h0m0s"),
                    Arguments.of(Duration.ofMinutes(90), "1h30m0s"),
                    Arguments.of(Duration.ofHours(2).plusMillis(500), "2h0m0.5s"),
                    Arguments.of(Duration.ofHours(24), "24h0m0s"),
                    Arguments.of(Duration.ofMillis(-1_500), "-1.5s"),
                    Arguments.of(Duration.ofNanos(-1), "-1ns"),
                    Arguments.of(Duration.ofNanos(-1_500), "-1.5µs"),
                    Arguments.of(Duration.ofMinutes(-2), "-2m0s"),
                    Arguments.of(Duration.ofHours(-1).minusNanos(1), "-1h0m0.000000001s"),
                    Arguments.of(LONGEST, "2562047h47m16.854775807s"),
                    Arguments.of(MOST_NEGATIVE, "-2562047h47m16.854775808s"));
        }

        @ParameterizedTest
        @MethodSource("goOutputs")
        void matchesGo(Duration duration, String expected) {
            assertThat(DurationText.format(duration)).isEqualTo(expected);
        }

        @Test
        void durationsBeyondGoKeepTheShape() {
            assertThat(DurationText.format(Duration.ofHours(3_000_000))).isEqualTo("3000000h0m0s");
            assertThat(DurationText.format(Duration.ofSeconds(Long.MIN_VALUE)))
                    .isEqualTo("-2562047788015215h30m8s");
        }

        @Test
        void formatStorableRejectsWhatParseWouldNotReadBack() {
            assertThat(DurationText.formatStorable("timeout", MOST_NEGATIVE)).isEqualTo("-2562047h47m16.854775808s");
            InvalidConfigurationException thrown = assertThrows(InvalidConfigurationException.class,
                    () -> DurationText.formatStorable("timeout", LONGEST.plusNanos(1)));
            assertThat(thrown.code()).isEqualTo(Code.SQL0108);
            assertThat(thrown.violations()).singleElement()
                    .extracting(Violation::property).isEqualTo("timeout");
        }
    }

    @Nested
    class Parse {

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                "0              | PT0S",
                "-0             | PT0S",
                "+0             | PT0S",
                "0s             | PT0S",
                "10s            | PT10S",
                "1h30m          | PT1H30M",
                "1.5s           | PT1.5S",
                "500ms          | PT0.5S",
                "-2m            | PT-2M",
                "+5s            | PT5S",
                "1h1m1s         | PT1H1M1S",
                "1us            | PT0.000001S",
                "1µs            | PT0.000001S",
                "1μs            | PT0.000001S",
                "1ns            | PT0.000000001S",
                "1.5h           | PT1H30M",
                ".5s            | PT0.5S",
                "1.s            | PT1S",
                "1.9ns          | PT0.000000001S",
                "2m3m           | PT5M",
                "1s1ms1us1ns    | PT1.001001001S",
                "'  10s  '      | PT10S",
                "PT10S          | PT10S",
                "pt10s          | PT10S",
                "P1DT2H         | PT26H",
                "p1dt2h         | PT26H",
                "-PT1M          | PT-1M",
                "' PT0.5S '     | PT0.5S"})
        void acceptsGoAndIso(String text, String expected) {
            assertThat(DurationText.parse("timeout", text)).isEqualTo(Duration.parse(expected));
        }

        @Test
        void acceptsTheWholeSigned64BitRange() {
            assertThat(DurationText.parse("timeout", "2562047h47m16.854775807s")).isEqualTo(LONGEST);
            assertThat(DurationText.parse("timeout", "9223372036854775807ns")).isEqualTo(LONGEST);
            assertThat(DurationText.parse("timeout", "-2562047h47m16.854775808s")).isEqualTo(MOST_NEGATIVE);
            assertThat(DurationText.parse("timeout", "-9223372036854775808ns")).isEqualTo(MOST_NEGATIVE);
        }

        @ParameterizedTest
        @NullSource
        @ValueSource(strings = {"", "   ", "10", "10 s", "1x", "s", ".s", ".", "1.5", "1H", "1S", "1e3s", "--1s",
                "-", "+", "00", "1s-", "1s 2m", "1,5s", "∞", "P1Y", "P", "PT", "PTS", "P1M", "Pfoo"})
        void rejectsAnythingElse(String text) {
            assertThat(rejected(text).rule()).contains("1h30m");
        }

        @ParameterizedTest
        @ValueSource(strings = {"2562047h47m16.854775808s", "9223372036854775808ns", "-9223372036854775809ns",
                "-2562047h47m16.854775809s", "2562048h", "99999999999999999999999999h", "PT2562048H",
                "-PT2562048H", "P106752D"})
        void rejectsOverflow(String text) {
            assertThat(rejected(text).rule()).contains("2^63");
        }
    }

    @Nested
    class RoundTrip {

        private static List<Duration> samples() {
            List<Duration> samples = new ArrayList<>(List.of(Duration.ZERO, LONGEST, MOST_NEGATIVE,
                    LONGEST.minusNanos(1), MOST_NEGATIVE.plusNanos(1), Duration.ofNanos(1), Duration.ofNanos(-1),
                    Duration.ofNanos(999), Duration.ofNanos(1_000), Duration.ofNanos(999_999),
                    Duration.ofNanos(1_000_000), Duration.ofNanos(999_999_999), Duration.ofSeconds(1),
                    Duration.ofSeconds(59, 999_999_999), Duration.ofSeconds(60), Duration.ofSeconds(3_599),
                    Duration.ofSeconds(3_600), Duration.ofSeconds(-3_600, 1)));
            Random random = new Random(20_240_301L);
            for (int i = 0; i < 2_000; i++) {
                samples.add(Duration.ofNanos(random.nextLong()));
                samples.add(Duration.ofNanos(random.nextLong() >> random.nextInt(64)));
                samples.add(Duration.ofMillis(random.nextInt(1_000_000) - 500_000));
                samples.add(Duration.ofSeconds(random.nextInt(100_000)));
            }
            return samples;
        }

        @Test
        void parseReadsBackWhatFormatWrites() {
            for (Duration duration : samples()) {
                String text = DurationText.format(duration);
                assertThat(DurationText.parse("timeout", text)).as(text).isEqualTo(duration);
            }
        }
    }
}
