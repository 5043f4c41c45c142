package io.sqlstreams.tck.telemetry;

import java.util.Map;

/**
 * One data point of a metric as a server exported it over OTLP. {@code value} is a sum's or gauge's number, and a
 * histogram's count of recorded values. Attribute values are as in {@link ReceivedSpan}.
 */
public record ReceivedMetricPoint(String serviceName, String metric, Map<String, Object> attributes, double value) {
}
