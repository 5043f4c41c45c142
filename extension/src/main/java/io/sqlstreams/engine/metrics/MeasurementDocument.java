package io.sqlstreams.engine.metrics;

import java.io.StringReader;
import java.time.Instant;
import java.util.Map;

import io.sqlstreams.Measurement;
import io.sqlstreams.MetricKind;
import io.sqlstreams.SchemaVersion;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

/** A measurement as the payload of a {@code __system.metrics} message. */
@SchemaVersion(1)
public record MeasurementDocument(String name, String kind, double value, String unit, Map<String, String> attributes,
                                  Instant at, JsonObject metadata) {

    public static MeasurementDocument of(Measurement measurement, Instant at) {
        return new MeasurementDocument(measurement.name(), measurement.kind().wireName(), measurement.value(),
                measurement.unit() == null ? "" : measurement.unit(), measurement.attributes(), at,
                metadata(measurement.metadata()));
    }

    public Measurement toMeasurement() {
        return new Measurement(name, MetricKind.fromWireName(kind), value, unit, attributes, at,
                metadata == null ? null : metadata.toString());
    }

    private static JsonObject metadata(String json) {
        if (json == null) {
            return null;
        }
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
