package io.sqlstreams.jakarta;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * DOWN until the sessions run, while PostgreSQL does not answer, and while a group's session is not running. The
 * system manager's state is reported as data ({@code manager}) and never takes readiness down.
 */
@Readiness
@ApplicationScoped
public class SqlStreamsReadiness implements HealthCheck {
    private static final int DATABASE_TIMEOUT_SECONDS = 2;

    @Inject
    SqlStreamsRuntime runtime;

    @Override
    public HealthCheckResponse call() {
        boolean ready = runtime.started() && (runtime.states().values().stream()
                .allMatch(state -> state.status() == GroupState.Status.DISABLED)
                || runtime.databaseReachable(DATABASE_TIMEOUT_SECONDS));
        return HealthReport.of("sqlstreams-ready", ready, runtime.states(),
                state -> state.status() != GroupState.Status.RUNNING && state.status() != GroupState.Status.DISABLED
                        && state.status() != GroupState.Status.PAUSED,
                Map.of("manager", runtime.managerState()));
    }
}
