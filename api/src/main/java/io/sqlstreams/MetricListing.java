package io.sqlstreams;

import java.util.List;

/**
 * Retained series as {@link MetricsHandle#latest(MetricFilter)} lists them.
 *
 * @param latest      the newest retained measurement of each listed series, ordered by name and then by
 *                    attributes; cut short at the filter's series limit
 * @param seriesTotal how many retained series match the filter, the limit aside
 */
public record MetricListing(List<Measurement> latest, long seriesTotal) {

    public MetricListing {
        latest = List.copyOf(latest);
    }

    /** No series at all. */
    public static MetricListing empty() {
        return new MetricListing(List.of(), 0);
    }
}
