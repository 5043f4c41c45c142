package io.sqlstreams.sample.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/**
 * The launcher's own OTLP/HTTP trace endpoint on 127.0.0.1 (binary protobuf, uncompressed: the exporters'
 * defaults), which hands every span the sample exports to a consumer, in the order they arrive.
 */
final class TraceReceiver implements AutoCloseable {
    private static final String PATH = "/v1/traces";

    private final HttpServer server;

    private TraceReceiver(HttpServer server) {
        this.server = server;
    }

    /** A receiver on a free port. */
    static TraceReceiver start(Consumer<SampleSpan> spans) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext(PATH, exchange -> receive(exchange, spans));
            server.start();
            return new TraceReceiver(server);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen for the sample's traces", e);
        }
    }

    private static void receive(HttpExchange exchange, Consumer<SampleSpan> spans) throws IOException {
        try (exchange; InputStream body = exchange.getRequestBody()) {
            if (!exchange.getRequestMethod().equals("POST") || !exchange.getRequestURI().getPath().equals(PATH)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            ExportTraceServiceRequest request;
            try {
                request = ExportTraceServiceRequest.parseFrom(body);
            } catch (InvalidProtocolBufferException e) {
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            TraceRequests.spans(request).forEach(spans);
            // an ExportTraceServiceResponse with every field at its default: nothing rejected
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
        }
    }

    /** The URL an OTLP/HTTP trace exporter sends to. */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
