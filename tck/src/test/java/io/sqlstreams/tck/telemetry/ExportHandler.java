package io.sqlstreams.tck.telemetry;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

/**
 * One OTLP/HTTP export path ({@code /v1/traces}, {@code /v1/metrics}) in its binary protobuf encoding: decodes each
 * request and hands what it holds on.
 */
final class ExportHandler<T> implements HttpHandler {
    private static final String PROTOBUF = "application/x-protobuf";
    /** Every export response (trace, metrics) with all fields at their defaults, which reports nothing rejected. */
    private static final byte[] ACCEPTED = new byte[0];

    /** Reads one export request's body. */
    interface Decoder<T> {
        /** @throws IllegalArgumentException for a value the receiver does not model */
        List<T> decode(InputStream body) throws IOException;
    }

    private final String path;
    private final Decoder<T> decoder;
    private final Consumer<List<T>> received;

    ExportHandler(String path, Decoder<T> decoder, Consumer<List<T>> received) {
        this.path = path;
        this.decoder = decoder;
        this.received = received;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            answer(exchange);
        } finally {
            exchange.close();
        }
    }

    private void answer(HttpExchange exchange) throws IOException {
        // the context also matches longer paths, e.g. /v1/traces/x
        if (!exchange.getRequestURI().getPath().equals(path)) {
            respond(exchange, 404, "text/plain", text("no such path"));
            return;
        }
        if (!exchange.getRequestMethod().equals("POST")) {
            exchange.getResponseHeaders().set("Allow", "POST");
            respond(exchange, 405, "text/plain", text("POST only"));
            return;
        }
        if (!mediaType(exchange.getRequestHeaders().getFirst("Content-Type")).equals(PROTOBUF)) {
            respond(exchange, 400, "text/plain", text("Content-Type " + PROTOBUF + " only"));
            return;
        }
        List<T> items;
        try (InputStream body = body(exchange)) {
            items = decoder.decode(body);
        } catch (IOException | IllegalArgumentException e) {
            respond(exchange, 400, "text/plain", text("not an OTLP export to " + path + ": " + e.getMessage()));
            return;
        }
        received.accept(items);
        respond(exchange, 200, PROTOBUF, ACCEPTED);
    }

    private static String mediaType(String contentType) {
        return contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    }

    private static InputStream body(HttpExchange exchange) throws IOException {
        String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
        if (encoding == null || encoding.equalsIgnoreCase("identity")) {
            return exchange.getRequestBody();
        }
        if (encoding.equalsIgnoreCase("gzip")) {
            return new GZIPInputStream(exchange.getRequestBody());
        }
        throw new IOException("unsupported Content-Encoding " + encoding);
    }

    private static byte[] text(String message) {
        return message.getBytes(StandardCharsets.UTF_8);
    }

    private static void respond(HttpExchange exchange, int status, String contentType, byte[] body)
            throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        // HttpServer reads a length of 0 as "chunked, length unknown"; -1 is an empty body
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
