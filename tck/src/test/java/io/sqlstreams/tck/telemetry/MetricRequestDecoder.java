package io.sqlstreams.tck.telemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;

/** Turns an OTLP {@code ExportMetricsServiceRequest} into {@link ReceivedMetricPoint}s. */
final class MetricRequestDecoder {
    private MetricRequestDecoder() {
    }

    /** @throws IllegalArgumentException for a metric type or value the receiver does not model */
    static List<ReceivedMetricPoint> points(ExportMetricsServiceRequest request) {
        List<ReceivedMetricPoint> points = new ArrayList<>();
        for (ResourceMetrics resourceMetrics : request.getResourceMetricsList()) {
            String serviceName = OtlpAttributes.serviceName(resourceMetrics.getResource());
            resourceMetrics.getScopeMetricsList().forEach(scopeMetrics -> scopeMetrics.getMetricsList()
                    .forEach(metric -> points.addAll(points(serviceName, metric).toList())));
        }
        return points;
    }

    private static Stream<ReceivedMetricPoint> points(String serviceName, Metric metric) {
        return switch (metric.getDataCase()) {
            case SUM -> metric.getSum().getDataPointsList().stream()
                    .map(point -> number(serviceName, metric.getName(), point));
            case GAUGE -> metric.getGauge().getDataPointsList().stream()
                    .map(point -> number(serviceName, metric.getName(), point));
            case HISTOGRAM -> metric.getHistogram().getDataPointsList().stream()
                    .map(point -> new ReceivedMetricPoint(serviceName, metric.getName(),
                            OtlpAttributes.of(point.getAttributesList()), point.getCount()));
            default -> throw new IllegalArgumentException("metric " + metric.getName() + " is a "
                    + metric.getDataCase());
        };
    }

    private static ReceivedMetricPoint number(String serviceName, String metric, NumberDataPoint point) {
        double value = switch (point.getValueCase()) {
            case AS_DOUBLE -> point.getAsDouble();
            case AS_INT -> point.getAsInt();
            case VALUE_NOT_SET -> throw new IllegalArgumentException("metric " + metric + " has a point without value");
        };
        return new ReceivedMetricPoint(serviceName, metric, OtlpAttributes.of(point.getAttributesList()), value);
    }
}
