package io.sqlstreams.jakarta.config;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.WireNamed;
import io.sqlstreams.engine.codec.DurationText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The kinds of value a property can hold, each with its parser. */
final class ValueKinds {

    static final ValueKind<Duration> DURATION = new ValueKind<>("duration", ValueKinds::duration);
    static final ValueKind<Integer> WHOLE_NUMBER = new ValueKind<>("whole number", ValueKinds::wholeNumber);
    static final ValueKind<Boolean> BOOLEAN = new ValueKind<>("`true` or `false`", ValueKinds::bool);
    static final ValueKind<String> TEXT = new ValueKind<>("text", ValueKinds::text);
    static final ValueKind<List<String>> PATTERNS = new ValueKind<>("comma-separated patterns", ValueKinds::patterns);
    static final ValueKind<String> URL_PATH = new ValueKind<>("URL path", ValueKinds::urlPath);
    private static final Pattern URL_PATH_TEXT = Pattern.compile("/[a-z0-9/_-]*");

    private ValueKinds() {
    }

    static <E extends Enum<E> & WireNamed> ValueKind<E> wireNamed(Class<E> type) {
        String spellings = Arrays.stream(type.getEnumConstants())
                .map(constant -> "`" + constant.wireName() + "`")
                .collect(Collectors.joining(", "));
        return new ValueKind<>(spellings, text -> {
            try {
                return WireNamed.parse(type, "", text);
            } catch (InvalidConfigurationException unknown) {
                throw new RejectedValueException(unknown.violations().get(0).rule());
            }
        });
    }

    private static Duration duration(String text) throws RejectedValueException {
        try {
            return DurationText.parse("", text);
        } catch (InvalidConfigurationException malformed) {
            throw new RejectedValueException(malformed.violations().get(0).rule());
        }
    }

    private static Integer wholeNumber(String text) throws RejectedValueException {
        try {
            return Integer.valueOf(text.strip());
        } catch (NumberFormatException malformed) {
            throw new RejectedValueException("must be a whole number up to " + Integer.MAX_VALUE + ", such as 8");
        }
    }

    private static Boolean bool(String text) throws RejectedValueException {
        String trimmed = text.strip();
        if (trimmed.equalsIgnoreCase("true") || trimmed.equalsIgnoreCase("false")) {
            return Boolean.valueOf(trimmed);
        }
        throw new RejectedValueException("must be true or false");
    }

    private static String text(String text) throws RejectedValueException {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            throw new RejectedValueException("must not be blank");
        }
        return trimmed;
    }

    private static String urlPath(String text) throws RejectedValueException {
        String trimmed = text.strip();
        if (!URL_PATH_TEXT.matcher(trimmed).matches()) {
            throw new RejectedValueException("must start with / and hold only a-z, 0-9, /, _ and -");
        }
        return trimmed;
    }

    /** Splits on commas as MicroProfile Config lists do: {@code \,} is a comma inside a pattern. */
    private static List<String> patterns(String text) throws RejectedValueException {
        List<String> patterns = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == ',') {
                current.append(',');
                i++;
            } else if (c == ',') {
                patterns.add(pattern(current, patterns.size()));
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        patterns.add(pattern(current, patterns.size()));
        return List.copyOf(patterns);
    }

    private static String pattern(StringBuilder text, int index) throws RejectedValueException {
        String pattern = text.toString().strip();
        if (pattern.isEmpty()) {
            throw new RejectedValueException("must not contain an empty pattern (pattern " + (index + 1) + ")");
        }
        return pattern;
    }
}
