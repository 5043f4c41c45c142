package io.sqlstreams.jakarta.telemetry;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.engine.telemetry.MessagingMeters;

/**
 * What the server offers the client for telemetry, found through CDI: its OpenTelemetry (MicroProfile Telemetry)
 * for traces, and for metrics its OpenTelemetry meter (Open Liberty's {@code mpTelemetry-2.0}) or else its
 * MicroProfile Metrics registry (Payara 6, whose OpenTelemetry traces only). Where an API is absent nothing here loads
 * a class of it, so the application runs as it would without telemetry.
 */
public final class ServerTelemetry {
    private static final String OPEN_TELEMETRY_API = "io.opentelemetry.api.OpenTelemetry";
    private static final String METRICS_API = "org.eclipse.microprofile.metrics.MetricRegistry";

    private ServerTelemetry() {
    }

    /** {@code client} with the server's OpenTelemetry when {@code enabled} and one is injectable; else unchanged. */
    public static ClientConfig.Builder tracing(ClientConfig.Builder client, boolean enabled) {
        return enabled && visible(OPEN_TELEMETRY_API) ? InjectedOpenTelemetry.into(client) : client;
    }

    /**
     * Where the messaging metrics go when {@code enabled}: {@link MessagingMeters#NONE} (the client's OpenTelemetry
     * meter, if it has one) when the server injects an OpenTelemetry meter or no metrics registry, else the
     * server's MicroProfile Metrics registry.
     */
    public static MessagingMeters meters(boolean enabled) {
        if (!enabled || visible(OPEN_TELEMETRY_API) && InjectedOpenTelemetry.meterInjectable()
                || !visible(METRICS_API)) {
            return MessagingMeters.NONE;
        }
        return MicroProfileMeters.fromRegistry();
    }

    private static boolean visible(String className) {
        try {
            Class.forName(className, false, ServerTelemetry.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }
}
