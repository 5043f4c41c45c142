package io.sqlstreams.jakarta.console;

import io.sqlstreams.Consumer;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;

/** The console's JSON endpoints under {@code api/}: the session, the overview, and one group's endpoints. */
final class ConsoleApi {
    private final SqlStreams client;

    ConsoleApi(SqlStreams client) {
        this.client = client;
    }

    /** The answer to {@code request} for the path below {@code api/}, split at its slashes. */
    JsonValue answer(HttpServletRequest request, List<String> path) {
        ConsoleRequest call = new ConsoleRequest(request);
        if (path.equals(List.of("session"))) {
            return call.read(() -> Json.createObjectBuilder()
                    .add("user", request.getUserPrincipal().getName())
                    .add("operator", request.isUserInRole(ConsoleRegistration.OPERATOR))
                    .add("csrf", CsrfGuard.token(request))
                    .build());
        }
        if (path.equals(List.of("overview"))) {
            return call.read(this::overview);
        }
        if (path.size() >= 3 && path.get(0).equals("groups")) {
            return new GroupEndpoints(client.stream(path.get(1), Object.class).consumer(path.get(2)), call)
                    .answer(String.join("/", path.subList(3, path.size())));
        }
        throw ConsoleFailure.notFound("no console endpoint api/" + String.join("/", path));
    }

    private JsonValue overview() {
        JsonArrayBuilder streams = Json.createArrayBuilder();
        client.streams().forEach(stream -> {
            StreamHandle<Object> handle = client.stream(stream.name(), Object.class);
            JsonArrayBuilder groups = Json.createArrayBuilder();
            for (Consumer consumer : handle.consumers()) {
                groups.add(ConsoleJson.groupSummary(handle.consumer(consumer.name()).inspect()));
            }
            streams.add(Json.createObjectBuilder().add("stream", stream.name()).add("groups", groups));
        });
        return Json.createObjectBuilder().add("streams", streams).build();
    }
}
