package io.sqlstreams.engine.codec;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidConfigurationException.Violation;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Go writes and reads them ({@code 1h30m0s}, {@code 1.5s}, {@code 500ms}), the spelling of
 * stored JSON documents and configuration. Stored durations are signed 64-bit nanosecond counts, as in
 * the reference.
 */
public final class DurationText {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final String COMPONENT_SYNTAX = "(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)";
    private static final Pattern COMPONENT = Pattern.compile(COMPONENT_SYNTAX);
    private static final Pattern GO_SYNTAX = Pattern.compile("[-+]?(?:" + COMPONENT_SYNTAX + ")+");
    private static final Pattern ISO_8601 = Pattern.compile("[-+]?[Pp].*");
    private static final Pattern ZERO = Pattern.compile("[-+]?0");
    private static final Map<String, Long> UNIT_NANOS = Map.of(
            "ns", 1L,
            "us", 1_000L,
            "µs", 1_000L,
            "μs", 1_000L,
            "ms", 1_000_000L,
            "s", NANOS_PER_SECOND,
            "m", 60 * NANOS_PER_SECOND,
            "h", 3_600 * NANOS_PER_SECOND);
    private static final String NOT_A_DURATION = "must be a duration such as 1h30m, 1.5s, 500ms or PT10S";
    private static final String OUT_OF_RANGE = "must lie within ±2^63 nanoseconds (about 292 years)";
    private static final BigInteger LONGEST = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger MOST_NEGATIVE = BigInteger.valueOf(Long.MIN_VALUE);

    private DurationText() {
    }

    /**
     * The text Go's {@code time.Duration.String()} gives: {@code 0s}; below a second the largest of
     * {@code ns}, {@code µs} and {@code ms} that fits ({@code 500ns}, {@code 1.5µs}, {@code 100ms});
     * otherwise hours, minutes and seconds with the fraction's trailing zeros dropped ({@code 10s},
     * {@code 5m0s}, {@code 2h0m0.5s}); a leading {@code -} when negative. Durations beyond Go's range
     * keep the same shape, but {@link #parse} rejects them.
     */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        boolean negative = d.isNegative();
        long seconds = d.getSeconds();
        long nanos = d.getNano();
        if (negative && nanos > 0) {
            seconds++;
            nanos = NANOS_PER_SECOND - nanos;
        }
        long unsignedSeconds = negative ? -seconds : seconds;
        StringBuilder text = new StringBuilder(negative ? "-" : "");
        if (unsignedSeconds == 0) {
            if (nanos < 1_000) {
                return text.append(nanos).append("ns").toString();
            }
            if (nanos < 1_000_000) {
                return appendDecimal(text, nanos, 1_000).append("µs").toString();
            }
            return appendDecimal(text, nanos, 1_000_000).append("ms").toString();
        }
        long hours = Long.divideUnsigned(unsignedSeconds, 3_600);
        long minutes = Long.remainderUnsigned(unsignedSeconds, 3_600) / 60;
        long secondsOfMinute = Long.remainderUnsigned(unsignedSeconds, 60);
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            text.append(minutes).append('m');
        }
        long secondsAsNanos = secondsOfMinute * NANOS_PER_SECOND + nanos;
        return appendDecimal(text, secondsAsNanos, NANOS_PER_SECOND).append('s').toString();
    }

    private static StringBuilder appendDecimal(StringBuilder text, long value, long scale) {
        text.append(value / scale);
        long fraction = value % scale;
        if (fraction > 0) {
            String digits = Long.toString(scale + fraction).substring(1);
            text.append('.').append(digits.replaceFirst("0+$", ""));
        }
        return text;
    }

    /**
     * Reads a duration in Go syntax (decimal numbers, each with an optional fraction and a unit of
     * {@code ns}, {@code us}, {@code µs}, {@code ms}, {@code s}, {@code m} or {@code h}, after an
     * optional sign: {@code 1h30m}, {@code 1.5s}, {@code -2m}, or a bare {@code 0}) or in ISO-8601
     * ({@code PT10S}, {@code P1DT2H}, any case). Surrounding whitespace is ignored. Fractions finer than
     * a nanosecond are dropped.
     *
     * @param property the configuration property or JSON key the text came from, named in the error
     * @throws InvalidConfigurationException (SQL0108) with one violation naming {@code property} when
     *                                       the text is neither, or lies beyond ±2<sup>63</sup> ns
     */
    public static Duration parse(String property, String text) {
        String trimmed = text == null ? "" : text.strip();
        BigInteger nanos;
        if (ZERO.matcher(trimmed).matches()) {
            nanos = BigInteger.ZERO;
        } else if (GO_SYNTAX.matcher(trimmed).matches()) {
            nanos = goNanos(trimmed);
        } else if (ISO_8601.matcher(trimmed).matches()) {
            nanos = isoNanos(property, text, trimmed);
        } else {
            throw invalid(property, text, NOT_A_DURATION);
        }
        if (!storable(nanos)) {
            throw invalid(property, text, OUT_OF_RANGE);
        }
        return Duration.ofNanos(nanos.longValueExact());
    }

    /**
     * {@link #format(Duration)} for a duration about to be stored.
     *
     * @throws InvalidConfigurationException (SQL0108) naming {@code property} when {@code d} lies beyond
     *                                       ±2<sup>63</sup> ns, which {@link #parse} would not read back
     */
    /** {@link #format} of a duration that fits a signed 64-bit nanosecond count; SQL0108 naming {@code property} otherwise. */
    public static String formatStorable(String property, Duration d) {
        if (!storable(nanos(d))) {
            throw invalid(property, d, OUT_OF_RANGE);
        }
        return format(d);
    }

    /** Whether {@code d} fits the signed 64-bit nanosecond count every stored duration uses. */
    public static boolean storable(Duration d) {
        return storable(nanos(d));
    }

    private static boolean storable(BigInteger nanos) {
        return nanos.compareTo(LONGEST) <= 0 && nanos.compareTo(MOST_NEGATIVE) >= 0;
    }

    private static BigInteger nanos(Duration d) {
        return BigInteger.valueOf(d.getSeconds()).multiply(BigInteger.valueOf(NANOS_PER_SECOND))
                .add(BigInteger.valueOf(d.getNano()));
    }

    private static BigInteger goNanos(String text) {
        BigInteger total = BigInteger.ZERO;
        Matcher component = COMPONENT.matcher(text);
        while (component.find()) {
            BigDecimal amount = new BigDecimal(component.group(1));
            BigDecimal unit = BigDecimal.valueOf(UNIT_NANOS.get(component.group(2)));
            total = total.add(amount.multiply(unit).setScale(0, RoundingMode.DOWN).toBigIntegerExact());
        }
        return text.startsWith("-") ? total.negate() : total;
    }

    private static BigInteger isoNanos(String property, String text, String trimmed) {
        try {
            return nanos(Duration.parse(trimmed));
        } catch (DateTimeParseException malformed) {
            throw invalid(property, text, NOT_A_DURATION);
        }
    }

    private static InvalidConfigurationException invalid(String property, Object value, String rule) {
        return new InvalidConfigurationException(List.of(new Violation(property, value, rule)));
    }
}
