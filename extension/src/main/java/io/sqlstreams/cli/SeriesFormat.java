package io.sqlstreams.cli;

import java.math.BigDecimal;
import java.util.Map;

import io.sqlstreams.Measurement;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/** How the {@code metric} commands show a measurement: JSON fields and table cells. */
final class SeriesFormat {
    private SeriesFormat() {
    }

    /** A whole measurement: {@code name}, {@code kind}, {@code unit}, {@code attributes}, {@code value}, {@code at}. */
    static JsonObject measurement(Measurement measurement) {
        return Json.createObjectBuilder()
                .add("name", measurement.name())
                .add("kind", measurement.kind().wireName())
                .add("unit", measurement.unit())
                .addAll(observation(measurement))
                .build();
    }

    /** One observation of a series: {@code attributes}, {@code value}, {@code at}. */
    static JsonObjectBuilder observation(Measurement measurement) {
        return Json.createObjectBuilder()
                .add("attributes", attributes(measurement.attributes()))
                .add("value", value(measurement))
                .add("at", measurement.at().toString());
    }

    static JsonObject attributes(Map<String, String> attributes) {
        JsonObjectBuilder object = Json.createObjectBuilder();
        attributes.forEach(object::add);
        return object.build();
    }

    /** The value without a trailing {@code .0}: {@code 17}, {@code 0.25}. */
    static BigDecimal value(Measurement measurement) {
        BigDecimal value = BigDecimal.valueOf(measurement.value()).stripTrailingZeros();
        return value.scale() < 0 ? value.setScale(0) : value;
    }

    /** A unit in a table cell; {@value TextTable#NONE} for a dimensionless metric or an unknown one. */
    static String unitCell(JsonValue unit) {
        String cell = TextTable.cell(unit);
        return cell.isEmpty() ? TextTable.NONE : cell;
    }
}
