package io.sqlstreams.tck;

import java.io.IOException;
import java.io.StringReader;
import java.net.CookieManager;
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

/**
 * The operator console of one deployment, its page and its JSON endpoints, called over HTTP from the test JVM as one user (Basic
 * authentication, sent with every request) or as nobody, with a cookie jar of its own so the HTTP session, and
 * with it the CSRF token, lasts from call to call.
 */
public final class ConsoleEndpoint {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final ServerCoordinates server;
    private final String console;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT)
            .cookieHandler(new CookieManager()).build();

    /** One answer: the HTTP status and the body when it is JSON, else an empty object. */
    public record Answer(int status, JsonValue body) {
        public JsonObject json() {
            return body.asJsonObject();
        }
    }

    private ConsoleEndpoint(ServerCoordinates server, String application, String authorization) {
        this.server = server;
        this.console = "/" + application + "/sqlstreams/";
        this.authorization = authorization;
    }

    public static ConsoleEndpoint as(ServerCoordinates server, String application, String user, String password) {
        String credentials = Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        return new ConsoleEndpoint(server, application, "Basic " + credentials);
    }

    public static ConsoleEndpoint anonymous(ServerCoordinates server, String application) {
        return new ConsoleEndpoint(server, application, null);
    }

    /** GET {@code api/<path>}. */
    public Answer get(String path) throws IOException, InterruptedException {
        return send(request("api/" + path).GET());
    }

    /** GET a file of the console's page: {@code ""} for the page itself. */
    public HttpResponse<String> page(String file) throws IOException, InterruptedException {
        return http.send(request(file).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** POST {@code api/<path>}, with {@code csrf} in the header the console checks unless it is null. */
    public Answer post(String path, String csrf) throws IOException, InterruptedException {
        HttpRequest.Builder request = request("api/" + path).POST(HttpRequest.BodyPublishers.noBody());
        if (csrf != null) {
            request.header("X-SQLStreams-CSRF", csrf);
        }
        return send(request);
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.http(console + path)).timeout(TIMEOUT);
        return authorization == null ? request : request.header("Authorization", authorization);
    }

    private Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (!response.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
            return new Answer(response.statusCode(), JsonValue.EMPTY_JSON_OBJECT);
        }
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            return new Answer(response.statusCode(), reader.readValue());
        }
    }
}
