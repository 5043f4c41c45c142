package io.sqlstreams.tck.telemetry;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import com.sun.net.httpserver.HttpServer;

/**
 * An OTLP/HTTP endpoint for traces ({@code http/protobuf}) on 127.0.0.1 and a free port, keeping every span it
 * receives, for a test to point a server's OTLP exporter at ({@link #endpoint()}) and assert on what arrives.
 */
public final class OtlpTraceReceiver implements AutoCloseable {
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    private OtlpTraceReceiver(HttpServer server) {
        this.server = server;
    }

    public static OtlpTraceReceiver start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        OtlpTraceReceiver receiver = new OtlpTraceReceiver(server);
        server.createContext(TraceExportHandler.PATH, new TraceExportHandler(receiver.spans::addAll));
        server.start();
        return receiver;
    }

    /** The URL for the exporter: {@code http://127.0.0.1:<port>/v1/traces}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + TraceExportHandler.PATH;
    }

    /** The spans received so far, in the order they arrived. */
    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    /** Waits until the spans received so far satisfy {@code condition}, and returns them. */
    public List<ReceivedSpan> awaitSpans(Predicate<List<ReceivedSpan>> condition, Duration timeout) {
        return await("spans received at " + endpoint()).atMost(timeout).pollInterval(POLL_INTERVAL)
                .until(this::spans, condition);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
