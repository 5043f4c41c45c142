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
}
