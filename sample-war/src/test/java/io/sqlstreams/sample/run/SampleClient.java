package io.sqlstreams.sample.run;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

/** The running sample's HTTP API, as a test calls it. */
final class SampleClient {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** One answer: the HTTP status and the JSON body, or an empty object when the body is not JSON. */
    record Answer(int status, JsonObject body) {
    }

    private final URI base;

    SampleClient(URI base) {
        this.base = base;
    }

    Answer placeOrder(String customer, long amountCents) throws IOException, InterruptedException {
        return send(orderRequest(orderBody(customer, amountCents)));
    }

    /** {@link #placeOrder} as a traced client places it: in the W3C trace context {@code traceparent}. */
    Answer placeOrderIn(String traceparent, String customer, long amountCents)
            throws IOException, InterruptedException {
        return send(orderRequest(orderBody(customer, amountCents)).header("traceparent", traceparent));
    }

    /** POST {@code api/orders} with any body, well-formed or not. */
    Answer postOrder(HttpRequest.BodyPublisher body) throws IOException, InterruptedException {
        return send(orderRequest(body));
    }

    private static HttpRequest.BodyPublisher orderBody(String customer, long amountCents) {
        return HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder().add("customer", customer)
                .add("amountCents", amountCents).add("currency", "EUR").build().toString());
    }

    private HttpRequest.Builder orderRequest(HttpRequest.BodyPublisher body) {
        return HttpRequest.newBuilder(base.resolve("api/orders")).header("Content-Type", "application/json")
                .POST(body);
    }

    /** GET of a path relative to the application, such as {@code api/status}. */
    Answer get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET());
    }

    /** GET as {@code user}, with Basic authentication. */
    Answer getAs(String user, String password, String path) throws IOException, InterruptedException {
        String credentials = Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Authorization", "Basic " + credentials).GET());
    }

    private static Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(request.timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        boolean isJson = response.headers().firstValue("Content-Type").filter(type -> type.contains("json"))
                .isPresent();
        if (!isJson) {
            return new Answer(response.statusCode(), JsonValue.EMPTY_JSON_OBJECT);
        }
        try (JsonReader json = Json.createReader(new StringReader(response.body()))) {
            return new Answer(response.statusCode(), json.readObject());
        }
    }
}
