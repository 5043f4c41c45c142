package io.sqlstreams.bench;

import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;

/**
 * A metric exporter without the I/O: it counts the points it is given of one instrumentation scope (the SDK
 * exports metrics of its own beside the library's).
 */
final class CountingMetricExporter extends CountingExporter implements MetricExporter {
    private final String scope;
    private final AtomicLong points = new AtomicLong();

    CountingMetricExporter(String scope) {
        this.scope = scope;
    }

    long points() {
        return points.get();
    }

    @Override
    public CompletableResultCode export(Collection<MetricData> metrics) {
        points.addAndGet(metrics.stream().filter(metric -> metric.getInstrumentationScopeInfo().getName().equals(scope))
                .mapToLong(metric -> metric.getData().getPoints().size()).sum());
        return CompletableResultCode.ofSuccess();
    }

    /**
     * Delta, unlike a server's usual cumulative: then the points exported after a repetition are the ones recorded
     * during it, where cumulative would export every instrument that ever recorded again.
     */
    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
        return AggregationTemporality.DELTA;
    }
}
