package io.sqlstreams;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which retained series {@link MetricsHandle#latest(MetricFilter)} lists. Each part narrows the listing;
 * {@link #all()} narrows nothing. Checked when the listing is read: a malformed name is SQL0109, a malformed
 * attribute SQL0145, a limit below 1 SQL0108.
 *
 * @param origin      built-in series (names under {@code sqlstreams.}), user series, or both
 * @param name        only the series of this metric; null for every metric
 * @param attributes  only the series whose attributes include every one of these, key and value (a partial
 *                    match: a series may carry more); empty for any
 * @param seriesLimit at most this many series; null for all of them
 */
public record MetricFilter(Origin origin, String name, Map<String, String> attributes, Integer seriesLimit) {

    /** Whose series to list. */
    public enum Origin {
        /** Built-in and user series alike. */
        ANY,
        /** The library's own series: names under {@code sqlstreams.}. */
        BUILT_IN,
        /** Series produced by applications. */
        USER
    }

    public MetricFilter {
        origin = origin == null ? Origin.ANY : origin;
        // null keys and values are kept, so that reading reports them as SQL0145 rather than failing here
        attributes = attributes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }

    /** Every retained series. */
    public static MetricFilter all() {
        return new MetricFilter(Origin.ANY, null, Map.of(), null);
    }

    /** This filter, listing only series of {@code chosen} origin. */
    public MetricFilter origin(Origin chosen) {
        return new MetricFilter(chosen, name, attributes, seriesLimit);
    }

    /** This filter, listing only series of metric {@code metric}. */
    public MetricFilter named(String metric) {
        return new MetricFilter(origin, metric, attributes, seriesLimit);
    }

    /** This filter, listing only series whose attributes include every one of {@code required}. */
    public MetricFilter withAttributes(Map<String, String> required) {
        return new MetricFilter(origin, name, required, seriesLimit);
    }

    /** This filter, listing at most {@code limit} series. */
    public MetricFilter limit(int limit) {
        return new MetricFilter(origin, name, attributes, limit);
    }
}
