package io.sqlstreams.jakarta.beans;

import io.opentelemetry.api.OpenTelemetry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** Stands in for MicroProfile Telemetry: the server's injectable OpenTelemetry, here an SDK a test records with. */
@ApplicationScoped
public class ServerOpenTelemetry {
    public static volatile OpenTelemetry instance;

    @Produces
    @ApplicationScoped
    OpenTelemetry openTelemetry() {
        return instance;
    }
}
