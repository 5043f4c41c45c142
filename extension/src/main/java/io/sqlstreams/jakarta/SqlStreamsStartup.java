package io.sqlstreams.jakarta;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Startup;

/** UP once every enabled group's declaration is registered and its session started. */
@Startup
@ApplicationScoped
public class SqlStreamsStartup implements HealthCheck {
    @Inject
    SqlStreamsRuntime runtime;

    @Override
    public HealthCheckResponse call() {
        return HealthReport.of("sqlstreams-started", runtime.started(), runtime.states(),
                state -> state.status() == GroupState.Status.NOT_STARTED, Map.of());
    }
}
