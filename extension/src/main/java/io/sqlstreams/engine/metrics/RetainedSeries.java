package io.sqlstreams.engine.metrics;

import io.sqlstreams.MetricFilter;
import io.sqlstreams.MetricListing;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.SeriesQueries;

/** The newest retained measurement of every series a {@link MetricFilter} selects, read in one statement. */
public final class RetainedSeries {
    private final RetainedMeasurements retained;
    private final SeriesQueries series;

    public RetainedSeries(Engine engine) {
        this.retained = new RetainedMeasurements(engine);
        this.series = new SeriesQueries(engine.sql());
    }

    public MetricListing latest(MetricFilter filter) {
        MeasurementRules.checkFilter(filter);
        return retained.read("listing the retained metric series", (connection, streamId) -> {
            SeriesQueries.SeriesPage page = series.retainedSeries(connection, streamId, filter,
                    BuiltInMetrics.RESERVED_PREFIX);
            return new MetricListing(page.heads().stream().map(retained::decode).toList(), page.seriesTotal());
        }).orElseGet(MetricListing::empty);
    }
}
