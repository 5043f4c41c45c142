package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.TelemetryScenario;

/** {@link TelemetryScenario} on Open Liberty, whose OpenTelemetry exports the metrics by OTLP too. */
class TelemetryLibertyIT extends TelemetryScenario {
    @Override
    protected boolean countsConsumed(String group) {
        return receiver().metricPoints().stream()
                .anyMatch(point -> point.metric().equals("messaging.client.consumed.messages")
                        && group.equals(point.attributes().get("messaging.consumer.group.name"))
                        && point.value() >= 1);
    }
}
