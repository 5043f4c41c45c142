package io.sqlstreams.jakarta.console;

import io.sqlstreams.Code;
import io.sqlstreams.MessageWhereabouts;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.operator.OperatorJson;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonValue;
import java.util.List;

/**
 * Where messages of one stream stand in each of its groups, under {@code api/streams/<stream>/}: by id
 * ({@code messages/<id>}) or by message key ({@code keys?key=<key>&limit=}, newest first; a parameter, so that a
 * key may hold any character, a slash included).
 */
final class StreamEndpoints {
    private static final int KEY_MATCHES = 20;

    private final StreamHandle<Object> stream;
    private final ConsoleRequest call;

    StreamEndpoints(StreamHandle<Object> stream, ConsoleRequest call) {
        this.stream = stream;
        this.call = call;
    }

    /** The answer for {@code route}, the path segments below the stream. */
    JsonValue answer(List<String> route) {
        if (route.size() == 2 && route.get(0).equals("messages")) {
            return call.read(() -> message(DeadLetterParameters.parseNumber("id", route.get(1))));
        }
        if (route.equals(List.of("keys"))) {
            String key = call.http().getParameter("key");
            if (key == null || key.isEmpty()) {
                throw new SqlStreamsException(Code.SQL0152, "key must be a message key, not empty");
            }
            int limit = new DeadLetterParameters(call.http()).limit(KEY_MATCHES);
            return call.read(() -> messages(stream.locateKey(key, limit)));
        }
        throw ConsoleFailure.notFound("no stream endpoint " + String.join("/", route));
    }

    private JsonValue message(long id) {
        return stream.locate(id).map(OperatorJson::whereabouts).orElseThrow(
                () -> ConsoleFailure.notFound("the stream " + stream.name() + " holds no message " + id));
    }

    private static JsonValue messages(List<MessageWhereabouts> found) {
        JsonArrayBuilder messages = Json.createArrayBuilder();
        found.forEach(message -> messages.add(OperatorJson.whereabouts(message)));
        return Json.createObjectBuilder().add("messages", messages).build();
    }
}
