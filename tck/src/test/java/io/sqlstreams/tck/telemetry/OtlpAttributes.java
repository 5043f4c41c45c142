package io.sqlstreams.tck.telemetry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;

/**
 * OTLP attributes as a map whose values are {@link String}, {@link Long}, {@link Double}, {@link Boolean} or a
 * {@link List} of those.
 */
final class OtlpAttributes {
    private OtlpAttributes() {
    }

    /** The {@code service.name} of {@code resource}; empty when it has none. */
    static String serviceName(Resource resource) {
        return String.valueOf(of(resource.getAttributesList()).getOrDefault("service.name", ""));
    }

    /** @throws IllegalArgumentException for a value not modelled, e.g. a bytes attribute */
    static Map<String, Object> of(List<KeyValue> keyValues) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        keyValues.forEach(keyValue -> attributes.put(keyValue.getKey(), value(keyValue.getKey(), keyValue.getValue())));
        return Collections.unmodifiableMap(attributes);
    }

    private static Object value(String key, AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case INT_VALUE -> value.getIntValue();
            case DOUBLE_VALUE -> value.getDoubleValue();
            case BOOL_VALUE -> value.getBoolValue();
            case ARRAY_VALUE -> value.getArrayValue().getValuesList().stream().map(element -> value(key, element))
                    .toList();
            default -> throw new IllegalArgumentException("attribute " + key + " holds a " + value.getValueCase());
        };
    }
}
