package io.sqlstreams.jakarta;

import java.util.Map;
import java.util.function.Predicate;

import io.sqlstreams.jakarta.config.GroupAddress;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/**
 * One health response over the runtime's group states: data keyed {@code <stream>/<group>}, then any other facts
 * under their own keys, which never change the status.
 */
final class HealthReport {
    private HealthReport() {
    }

    static HealthCheckResponse of(String name, boolean up, Map<GroupAddress, GroupState> states,
                                  Predicate<GroupState> groupDown, Map<String, String> facts) {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(name);
        boolean anyDown = false;
        for (Map.Entry<GroupAddress, GroupState> entry : states.entrySet()) {
            response.withData(entry.getKey().stream() + "/" + entry.getKey().group(), entry.getValue().describe());
            anyDown |= groupDown.test(entry.getValue());
        }
        facts.forEach(response::withData);
        return response.status(up && !anyDown).build();
    }
}
