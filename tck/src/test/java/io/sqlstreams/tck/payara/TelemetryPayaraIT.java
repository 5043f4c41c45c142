package io.sqlstreams.tck.payara;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.OptionalDouble;

import io.sqlstreams.tck.TelemetryScenario;

/**
 * {@link TelemetryScenario} on Payara Micro, whose OpenTelemetry traces only: the metrics are in its MicroProfile
 * Metrics registry, which {@code /metrics} shows as Prometheus text.
 */
class TelemetryPayaraIT extends TelemetryScenario {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Override
    protected boolean countsConsumed(String group) throws Exception {
        return value("messaging_client_consumed_messages_total", group).orElse(0) >= 1;
    }

    @Override
    protected OptionalDouble groupGauge(String name, String group) throws Exception {
        return value(name.replace('.', '_'), group);
    }

    /** The value of the series {@code family} of {@code group} in the application scope of {@code /metrics}. */
    private OptionalDouble value(String family, String group) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(server().http("/metrics?scope=application")).timeout(WAIT).GET()
                .build();
        String tag = "messaging_consumer_group_name=\"" + group + "\"";
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body().lines()
                .filter(line -> line.startsWith(family + "{") && line.contains(tag))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).findFirst();
    }
}
