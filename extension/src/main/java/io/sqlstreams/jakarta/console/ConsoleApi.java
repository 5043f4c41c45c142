package io.sqlstreams.jakarta.console;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertStatus;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.operator.OperatorJson;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The console's JSON endpoints under {@code api/}: the session, the overview, the schedules, the alerts, one
 * stream's message search and one group's endpoints.
 */
final class ConsoleApi {
    private static final Comparator<Alert> ACTIVE_FIRST = Comparator
            .comparing((Alert alert) -> alert.status() != AlertStatus.ACTIVE)
            .thenComparing(Alert::at, Comparator.nullsLast(Comparator.reverseOrder()));

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
            return call.read(new Overview(client)::answer);
        }
        if (path.equals(List.of("schedules"))) {
            return call.read(this::schedules);
        }
        if (path.equals(List.of("alerts"))) {
            return call.read(this::alerts);
        }
        if (path.size() >= 3 && path.get(0).equals("streams")) {
            return new StreamEndpoints(client.stream(path.get(1), Object.class), call)
                    .answer(path.subList(2, path.size()));
        }
        if (path.size() >= 3 && path.get(0).equals("groups")) {
            return new GroupEndpoints(client.stream(path.get(1), Object.class).consumer(path.get(2)), call)
                    .answer(String.join("/", path.subList(3, path.size())));
        }
        throw ConsoleFailure.notFound("no console endpoint api/" + String.join("/", path));
    }

    private JsonValue schedules() {
        JsonArrayBuilder schedules = Json.createArrayBuilder();
        client.schedules().forEach(schedule -> schedules.add(OperatorJson.schedule(schedule)));
        return Json.createObjectBuilder().add("schedules", schedules).build();
    }

    /** The system's alerts and those of every stream and group, the active ones first, newest first within. */
    private JsonValue alerts() {
        List<Alert> alerts = new ArrayList<>(client.system().alerts().list());
        client.streams().forEach(stream -> {
            StreamHandle<Object> handle = client.stream(stream.name(), Object.class);
            alerts.addAll(handle.alerts().list());
            handle.consumers().forEach(group -> alerts.addAll(handle.consumer(group.name()).alerts().list()));
        });
        alerts.sort(ACTIVE_FIRST);
        JsonArrayBuilder json = Json.createArrayBuilder();
        alerts.forEach(alert -> json.add(OperatorJson.alert(alert)));
        return Json.createObjectBuilder().add("alerts", json).build();
    }
}
