package io.sqlstreams.engine.metrics;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidNameException;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.MetricKind;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.codec.Utf16;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

/**
 * The rules a measurement and a series name must keep (SQL0109 for names, SQL0145 for the rest), and the series
 * key that identifies a series on {@code __system.metrics}: the name, then the sorted attributes as
 * {@code {key="value",…}}.
 */
public final class MeasurementRules {
    static final int MAX_SERIES_KEY_BYTES = 1024;
    static final int MAX_ATTRIBUTES = 32;
    static final int MAX_ATTRIBUTE_VALUE_LENGTH = 256;

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*");
    private static final int MAX_NAME_LENGTH = 200;
    private static final Pattern ATTRIBUTE_KEY = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    private static final Pattern UNIT = Pattern.compile("|ms|s|\\{[A-Za-z0-9_.\\-]{1,63}\\}");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    private MeasurementRules() {
    }

    /**
     * A user's measurement: every rule, and a name outside {@code sqlstreams.}. Returns the series key.
     */
    public static String checkUserMeasurement(Measurement measurement) {
        if (measurement != null && measurement.name() != null
                && measurement.name().startsWith(BuiltInMetrics.RESERVED_PREFIX)) {
            checkName(measurement.name());
            throw new InvalidNameException("metric", measurement.name(), "names under "
                    + BuiltInMetrics.RESERVED_PREFIX + " belong to the library's built-in metrics");
        }
        return checkMeasurement(measurement);
    }

    /** A measurement the library records itself: every rule but the reserved prefix. Returns the series key. */
    public static String checkMeasurement(Measurement measurement) {
        if (measurement == null) {
            throw invalid("a measurement is required, got null");
        }
        checkName(measurement.name());
        String seriesKey = checkParts(measurement);
        BuiltInMetrics.named(measurement.name()).ifPresent(definition -> {
            if (definition.kind() != measurement.kind() || !definition.unit().equals(measurement.unit())) {
                throw invalid("built-in metric " + Quoting.quote(measurement.name()) + " is a "
                        + definition.kind().wireName() + " in " + Quoting.quote(definition.unit()) + ", not a "
                        + measurement.kind().wireName() + " in " + Quoting.quote(measurement.unit()));
            }
            checkBuiltInAttributes(definition, measurement.attributes());
        });
        return seriesKey;
    }

    /** A series named for reading: its name and attributes. Returns the series key. */
    public static String checkSeries(String name, Map<String, String> attributes) {
        checkName(name);
        Map<String, String> given = attributes == null ? Map.of() : attributes;
        String seriesKey = seriesKey(name, given);
        BuiltInMetrics.named(name).ifPresent(definition -> checkBuiltInAttributes(definition, given));
        return seriesKey;
    }

    /** Every series of a built-in metric carries exactly the attribute keys of its scope. */
    private static void checkBuiltInAttributes(MetricDefinition definition, Map<String, String> attributes) {
        if (!attributes.keySet().equals(Set.copyOf(definition.attributes()))) {
            throw invalid("built-in metric " + Quoting.quote(definition.name()) + " has the attributes "
                    + definition.attributes() + ", not " + new TreeMap<>(attributes).keySet());
        }
    }

    /**
     * A filter over the retained series: its name when it names one (SQL0109), its attributes (SQL0145), its
     * series limit (SQL0108).
     */
    public static MetricFilter checkFilter(MetricFilter filter) {
        if (filter == null) {
            throw invalid("a metric filter is required (MetricFilter.all() for every series)");
        }
        if (filter.name() != null) {
            checkName(filter.name());
        }
        nonNull(filter.name() == null ? "*" : filter.name(), filter.attributes());
        if (filter.seriesLimit() != null && filter.seriesLimit() < 1) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                    "seriesLimit", filter.seriesLimit(), "must be positive")));
        }
        return filter;
    }

    private static String checkParts(Measurement measurement) {
        String name = measurement.name();
        if (measurement.kind() == null) {
            throw invalid("measurement " + Quoting.quote(name) + " has no kind: gauge or counter");
        }
        double value = measurement.value();
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw invalid("measurement " + Quoting.quote(name) + " has value " + value + ": it must be finite");
        }
        if (measurement.kind() == MetricKind.COUNTER && value < 0) {
            throw invalid("counter " + Quoting.quote(name) + " has value " + value
                    + ": a counter is a cumulative total and cannot be negative");
        }
        String unit = measurement.unit() == null ? "" : measurement.unit();
        if (!UNIT.matcher(unit).matches()) {
            throw invalid("measurement " + Quoting.quote(name) + " has unit " + Quoting.quote(unit)
                    + ": use ms, s, an annotation such as {job} (1 to 63 letters, digits, '_', '.', '-'), or"
                    + " empty for none");
        }
        Instant at = measurement.at();
        if (at != null && (at.isBefore(Instant.EPOCH) || at.isAfter(LATEST))) {
            throw invalid("measurement " + Quoting.quote(name) + " was observed at " + at
                    + ": it must lie between 1970 and 9999");
        }
        checkMetadata(name, measurement.metadata());
        return seriesKey(name, measurement.attributes());
    }

    private static void checkName(String name) {
        if (name == null || name.length() > MAX_NAME_LENGTH || !NAME.matcher(name).matches()) {
            throw new InvalidNameException("metric", name, "must be 1 to " + MAX_NAME_LENGTH + " characters of"
                    + " dot-separated words, each a lowercase letter followed by lowercase letters, digits or '_'");
        }
    }

    private static void checkMetadata(String name, String metadata) {
        if (metadata == null) {
            return;
        }
        try (JsonReader reader = Json.createReader(new StringReader(metadata))) {
            if (reader.readValue().getValueType() == JsonValue.ValueType.OBJECT) {
                return;
            }
        } catch (JsonException | IllegalStateException malformed) {
            throw invalid("measurement " + Quoting.quote(name) + " has metadata that is not JSON: "
                    + malformed.getMessage());
        }
        throw invalid("measurement " + Quoting.quote(name) + " has metadata that is not a JSON object");
    }

    private static String seriesKey(String name, Map<String, String> attributes) {
        if (attributes.size() > MAX_ATTRIBUTES) {
            throw invalid("series " + Quoting.quote(name) + " has " + attributes.size() + " attributes; at most "
                    + MAX_ATTRIBUTES);
        }
        StringBuilder key = new StringBuilder(name);
        String separator = "{";
        for (Map.Entry<String, String> attribute : new TreeMap<>(nonNull(name, attributes)).entrySet()) {
            key.append(separator).append(attribute.getKey()).append("=\"")
                    .append(attribute.getValue().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            separator = ",";
        }
        if (!attributes.isEmpty()) {
            key.append('}');
        }
        String seriesKey = key.toString();
        if (seriesKey.getBytes(StandardCharsets.UTF_8).length > MAX_SERIES_KEY_BYTES) {
            throw invalid("series " + Quoting.quote(name) + " has a key of more than " + MAX_SERIES_KEY_BYTES
                    + " bytes in UTF-8 (its name and attributes together)");
        }
        return seriesKey;
    }

    private static Map<String, String> nonNull(String name, Map<String, String> attributes) {
        for (Map.Entry<String, String> attribute : attributes.entrySet()) {
            String key = attribute.getKey();
            if (key == null || !ATTRIBUTE_KEY.matcher(key).matches()) {
                throw invalid("series " + Quoting.quote(name) + " has attribute key " + Quoting.quote(key)
                        + ": it must be a lowercase letter followed by up to 62 lowercase letters, digits or '_'");
            }
            String value = attribute.getValue();
            if (value == null || value.isEmpty() || value.length() > MAX_ATTRIBUTE_VALUE_LENGTH
                    || value.chars().anyMatch(Character::isISOControl) || !Utf16.wellFormed(value)) {
                throw invalid("series " + Quoting.quote(name) + " has attribute " + key + " = "
                        + Quoting.quote(value) + ": a value is 1 to " + MAX_ATTRIBUTE_VALUE_LENGTH
                        + " characters without control characters or lone surrogates");
            }
        }
        return attributes;
    }

    private static SqlStreamsException invalid(String message) {
        return new SqlStreamsException(Code.SQL0145, message);
    }
}
