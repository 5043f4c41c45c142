package io.sqlstreams;

import java.util.List;
import java.util.Map;

/** The installation's metrics: the built-in catalogue, user measurements, and any series' retained values. */
public interface MetricsHandle {

    /** The built-in metrics, in code order; read from memory. */
    List<MetricDefinition> definitions();

    /** Produces user measurements. No I/O until a verb is called. */
    MeasurementProducer producer();

    /** Any series, built-in or user: its name and its full attribute set. No I/O until a verb is called. */
    MetricSeriesHandle metric(String name, Map<String, String> attributes);

    /**
     * The newest retained measurement of every series on {@code __system.metrics} that {@code filter} selects
     * (each series' compaction head), in one read, with how many series match in all. Retained is not fresh:
     * compare each {@link Measurement#at()} with the time you need. Empty before anything was recorded.
     */
    MetricListing latest(MetricFilter filter);
}
