package io.sqlstreams.tck;

import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

/** The server's MicroProfile Health endpoints, called over HTTP from the test JVM. */
public final class HealthEndpoint {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** One answer: the HTTP status and the JSON body. */
    public record Answer(int status, JsonObject body) {

        /** The data of the check called {@code name}; empty when it reports none. */
        public JsonObject data(String name) {
            return body.getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                    .filter(check -> check.getString("name").equals(name))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no health check " + name + " in " + body))
                    .getOrDefault("data", JsonValue.EMPTY_JSON_OBJECT).asJsonObject();
        }
    }

    private HealthEndpoint() {
    }

    /** GET {@code /health/<kind>}: {@code live}, {@code ready} or {@code started}. */
    public static Answer get(ServerCoordinates server, String kind) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(server.http("/health/" + kind)).timeout(TIMEOUT).GET().build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        boolean json = response.headers().firstValue("Content-Type").orElse("").startsWith("application/json");
        if (!json) {
            // a server still starting answers with an error page of its own
            return new Answer(response.statusCode(), JsonValue.EMPTY_JSON_OBJECT);
        }
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            return new Answer(response.statusCode(), reader.readObject());
        }
    }
}
