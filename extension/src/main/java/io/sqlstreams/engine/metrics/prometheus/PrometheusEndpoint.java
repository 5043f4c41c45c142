package io.sqlstreams.engine.metrics.prometheus;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.sqlstreams.MetricListing;
import io.sqlstreams.engine.Diagnostics;

/**
 * {@code GET /metrics} in a Prometheus exposition format, built on each scrape from the latest retained
 * measurements ({@link MetricsScrape}). The format follows the request's {@code Accept} header as the Prometheus
 * library negotiates it: the text format by default, OpenMetrics, or protobuf when that library's protobuf
 * support is on the class path. Names are always underscore-escaped. Run one endpoint per installation: two would
 * export every series twice.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    static final String PATH = "/metrics";

    private final HttpServer server;
    private final MetricsScrape scrape;
    private final ExpositionFormats formats = ExpositionFormats.init();

    private PrometheusEndpoint(HttpServer server, MetricsScrape scrape) {
        this.server = server;
        this.scrape = scrape;
    }

    /**
     * Listens on {@code address} and serves until {@link #close()}; {@code source} reads the latest retained
     * measurements, once per scrape. An address it cannot listen on is an {@link IOException}.
     */
    public static PrometheusEndpoint start(InetSocketAddress address, Supplier<MetricListing> source,
                                           Diagnostics diagnostics) throws IOException {
        HttpServer server = HttpServer.create(address, 0);
        PrometheusEndpoint endpoint = new PrometheusEndpoint(server, new MetricsScrape(source, diagnostics));
        server.createContext(PATH, endpoint::respond);
        server.start();
        return endpoint;
    }

    /** Where it listens (the port chosen when it was asked for port 0). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void respond(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            boolean head = exchange.getRequestMethod().equals("HEAD");
            if (!head && !exchange.getRequestMethod().equals("GET")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            ExpositionFormatWriter writer = formats.findWriter(exchange.getRequestHeaders().getFirst("Accept"));
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            try {
                writer.write(body, scrape.collect(), EscapingScheme.UNDERSCORE_ESCAPING);
            } catch (RuntimeException failed) {
                // the server would drop the connection without a word; the scraper records this line instead
                send(exchange, 500, "text/plain; charset=utf-8", head,
                        failed.toString().getBytes(StandardCharsets.UTF_8));
                return;
            }
            send(exchange, 200, writer.getContentType(), head, body.toByteArray());
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, boolean head, byte[] body)
            throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Stops listening; a scrape in progress is cut off. */
    @Override
    public void close() {
        server.stop(0);
    }
}
