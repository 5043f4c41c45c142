package io.sqlstreams.tck.liberty;

import java.util.OptionalDouble;

import io.sqlstreams.tck.TelemetryScenario;
import io.sqlstreams.tck.telemetry.ReceivedMetricPoint;

/** {@link TelemetryScenario} on Open Liberty, whose OpenTelemetry exports the metrics by OTLP too. */
class TelemetryLibertyIT extends TelemetryScenario {
    @Override
    protected boolean countsConsumed(String group) {
        return receiver().metricPoints().stream()
                .anyMatch(point -> point.metric().equals("messaging.client.consumed.messages")
                        && group.equals(point.attributes().get("messaging.consumer.group.name"))
                        && point.value() >= 1);
    }

    @Override
    protected OptionalDouble groupGauge(String name, String group) {
        return receiver().metricPoints().stream()
                .filter(point -> point.metric().equals(name)
                        && group.equals(point.attributes().get("messaging.consumer.group.name")))
                .reduce((earlier, later) -> later).stream().mapToDouble(ReceivedMetricPoint::value).findFirst();
    }
}
