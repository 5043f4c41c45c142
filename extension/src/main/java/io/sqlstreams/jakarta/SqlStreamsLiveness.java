package io.sqlstreams.jakarta;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/** DOWN only when a group's session died for good; a restarting session or a database blip stays UP. */
@Liveness
@ApplicationScoped
public class SqlStreamsLiveness implements HealthCheck {
    @Inject
    SqlStreamsRuntime runtime;

    @Override
    public HealthCheckResponse call() {
        return HealthReport.of("sqlstreams-sessions", true, runtime.states(), state -> state.status().dead(), Map.of());
    }
}
