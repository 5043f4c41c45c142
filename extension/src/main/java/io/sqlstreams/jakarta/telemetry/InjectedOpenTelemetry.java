package io.sqlstreams.jakarta.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.Meter;
import io.sqlstreams.ClientConfig;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;

/** The OpenTelemetry beans the server injects (loaded only once their API is known to be visible). */
final class InjectedOpenTelemetry {
    private InjectedOpenTelemetry() {
    }

    static ClientConfig.Builder into(ClientConfig.Builder client) {
        Instance<OpenTelemetry> injected = CDI.current().select(OpenTelemetry.class);
        return injected.isResolvable() ? client.openTelemetry(injected.get()) : client;
    }

    /** Whether the server injects a {@link Meter}: its OpenTelemetry exports metrics (Payara's does not). */
    static boolean meterInjectable() {
        return CDI.current().select(Meter.class).isResolvable();
    }
}
