package io.sqlstreams.engine.metrics.prometheus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.MetricKind;
import io.sqlstreams.MetricListing;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.metrics.BuiltInMetrics;

/**
 * One scrape's metric families: the latest retained measurements, read afresh, translated family by family
 * ({@link FamilyTranslation}), each rejected family logged as SQL0104; then the exporter's own gauges,
 * {@code sqlstreams.otel.source.read_success} (SQL0102: 1, or 0 when the read failed) and
 * {@code sqlstreams.otel.measurements.rejected} (SQL0103: the series left out, absent when the read failed).
 */
final class MetricsScrape {
    private final Supplier<MetricListing> source;
    private final Diagnostics diagnostics;

    MetricsScrape(Supplier<MetricListing> source, Diagnostics diagnostics) {
        this.source = source;
        this.diagnostics = diagnostics;
    }

    MetricSnapshots collect() {
        MetricListing listing;
        try {
            listing = source.get();
        } catch (SqlStreamsException unread) {
            diagnostics.debug(unread.code(), () -> "the metrics endpoint could not read the retained measurements;"
                    + " this scrape exports read_success 0: " + unread.getMessage());
            return new MetricSnapshots(health(Map.of(Code.SQL0102, 0.0)));
        }
        FamilyTranslation.Result result = FamilyTranslation.translate(listing.latest());
        for (FamilyTranslation.Rejection rejection : result.rejections()) {
            diagnostics.event(Code.SQL0104, "metric family " + Quoting.quote(rejection.family())
                    + " is not exported: " + rejection.reason() + "; its " + rejection.series()
                    + " series are left out of the scrape");
        }
        List<MetricSnapshot> families = new ArrayList<>(result.families());
        families.addAll(health(Map.of(Code.SQL0102, 1.0, Code.SQL0103, (double) result.rejectedSeries())));
        return new MetricSnapshots(families);
    }

    /** The exporter's gauges with these values: never stored, so never in conflict with a retained family. */
    private static List<MetricSnapshot> health(Map<Code, Double> values) {
        List<Measurement> gauges = new ArrayList<>();
        for (MetricDefinition definition : BuiltInMetrics.all()) {
            Double value = values.get(definition.code());
            if (value != null) {
                gauges.add(new Measurement(definition.name(), MetricKind.GAUGE, value, definition.unit(), Map.of(),
                        null, null));
            }
        }
        return FamilyTranslation.translate(gauges).families();
    }
}
