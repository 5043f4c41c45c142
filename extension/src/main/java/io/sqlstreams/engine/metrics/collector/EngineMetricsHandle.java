package io.sqlstreams.engine.metrics.collector;

import java.util.List;
import java.util.Map;

import io.sqlstreams.MeasurementProducer;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.MetricListing;
import io.sqlstreams.MetricSeriesHandle;
import io.sqlstreams.MetricsHandle;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.BuiltInMetrics;
import io.sqlstreams.engine.metrics.EngineMetricSeriesHandle;
import io.sqlstreams.engine.metrics.RetainedSeries;

/** The installation's metrics, for one client. */
public final class EngineMetricsHandle implements MetricsHandle {
    private final Engine engine;

    public EngineMetricsHandle(Engine engine) {
        this.engine = engine;
    }

    @Override
    public List<MetricDefinition> definitions() {
        return BuiltInMetrics.all();
    }

    @Override
    public MeasurementProducer producer() {
        return EngineMeasurementProducer.forUsers(engine);
    }

    @Override
    public MetricSeriesHandle metric(String name, Map<String, String> attributes) {
        return new EngineMetricSeriesHandle(engine, name, attributes);
    }

    @Override
    public MetricListing latest(MetricFilter filter) {
        return new RetainedSeries(engine).latest(filter);
    }
}
