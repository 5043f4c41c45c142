package io.sqlstreams;

import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * One observation of a metric series, as it is retained on the system stream {@code __system.metrics}. The
 * series is the name with its attributes; the newest observation ({@code at}) of a series is its head.
 * Validated when produced (see {@link MeasurementProducer}).
 *
 * @param name       the metric's name: dot-separated lowercase words, such as {@code billing.queue_depth};
 *                   names under {@code sqlstreams.} belong to the library
 * @param kind       gauge or counter
 * @param value      the value: finite, and not negative for a counter
 * @param unit       the UCUM unit: {@code ms}, {@code s}, an annotation such as {@code {job}}, or empty for none
 * @param attributes what identifies the series besides its name (sorted; none is an empty map)
 * @param at         when it was observed; null means when it is produced (the database's clock)
 * @param metadata   a JSON object carried along, not part of the series and never exported as labels; or null
 */
public record Measurement(String name, MetricKind kind, double value, String unit, Map<String, String> attributes,
                          Instant at, String metadata) {

    public Measurement {
        attributes = attributes == null ? Map.of() : sorted(attributes);
    }

    /** Null keys and values are kept, so that producing reports them as SQL0145 rather than failing here. */
    private static Map<String, String> sorted(Map<String, String> attributes) {
        Map<String, String> sorted = new TreeMap<>(Comparator.nullsFirst(Comparator.<String>naturalOrder()));
        sorted.putAll(attributes);
        return Collections.unmodifiableMap(sorted);
    }

    /** A gauge observed when it is produced, without metadata. */
    public static Measurement gauge(String name, double value, String unit, Map<String, String> attributes) {
        return new Measurement(name, MetricKind.GAUGE, value, unit, attributes, null, null);
    }

    /** A counter's cumulative total, observed when it is produced, without metadata. */
    public static Measurement counter(String name, double value, String unit, Map<String, String> attributes) {
        return new Measurement(name, MetricKind.COUNTER, value, unit, attributes, null, null);
    }

    /** This measurement observed at {@code at}. */
    public Measurement at(Instant observedAt) {
        return new Measurement(name, kind, value, unit, attributes, observedAt, metadata);
    }

    /** This measurement carrying {@code json} (a JSON object) as its metadata. */
    public Measurement withMetadata(String json) {
        return new Measurement(name, kind, value, unit, attributes, at, json);
    }
}
