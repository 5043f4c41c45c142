package io.sqlstreams.tck.telemetry;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/**
 * An OTLP/HTTP endpoint for traces and metrics ({@code http/protobuf}) on 127.0.0.1, keeping every span and metric
 * data point it receives, for a test to point a server's OTLP exporters at ({@link #tracesEndpoint()},
 * {@link #metricsEndpoint()}) and assert on what arrives.
 */
public final class OtlpReceiver implements AutoCloseable {
    private static final String TRACES = "/v1/traces";
    private static final String METRICS = "/v1/metrics";
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<ReceivedMetricPoint> metricPoints = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    /** A receiver on a free port. */
    public static OtlpReceiver start() throws IOException {
        return start(0);
    }

    /** A receiver on {@code port}, for a server configured with its endpoints before the receiver started. */
    public static OtlpReceiver start(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        OtlpReceiver receiver = new OtlpReceiver(server);
        server.createContext(TRACES, new ExportHandler<>(TRACES,
                body -> TraceRequestDecoder.spans(ExportTraceServiceRequest.parseFrom(body)), receiver.spans::addAll));
        server.createContext(METRICS, new ExportHandler<>(METRICS,
                body -> MetricRequestDecoder.points(ExportMetricsServiceRequest.parseFrom(body)),
                receiver.metricPoints::addAll));
        server.start();
        return receiver;
    }

    /** The URL for the trace exporter: {@code http://127.0.0.1:<port>/v1/traces}. */
    public String tracesEndpoint() {
        return endpoint(TRACES);
    }

    /** The URL for the metric exporter: {@code http://127.0.0.1:<port>/v1/metrics}. */
    public String metricsEndpoint() {
        return endpoint(METRICS);
    }

    /** The spans received so far, in the order they arrived. */
    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    /** Waits until the spans received so far satisfy {@code condition}, and returns them. */
    public List<ReceivedSpan> awaitSpans(Predicate<List<ReceivedSpan>> condition, Duration timeout) {
        return await("spans received at " + tracesEndpoint()).atMost(timeout).pollInterval(POLL_INTERVAL)
                .until(this::spans, condition);
    }

    /** The metric data points received so far, in the order they arrived. */
    public List<ReceivedMetricPoint> metricPoints() {
        return List.copyOf(metricPoints);
    }

    /** Waits until the metric data points received so far satisfy {@code condition}, and returns them. */
    public List<ReceivedMetricPoint> awaitMetricPoints(Predicate<List<ReceivedMetricPoint>> condition,
                                                       Duration timeout) {
        return await("metrics received at " + metricsEndpoint()).atMost(timeout).pollInterval(POLL_INTERVAL)
                .until(this::metricPoints, condition);
    }

    private String endpoint(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
