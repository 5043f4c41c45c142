package io.sqlstreams.engine.codec;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbException;

import java.util.List;

/**
 * Payloads as JSON through Jakarta JSON Binding, and their schema versions from {@link SchemaVersion}. The
 * payload itself never appears in an error or a log line.
 */
public final class PayloadCodec {
    private static final String NUL_ESCAPE = "\\u0000";

    private volatile Jsonb jsonb;

    /**
     * The payload type's {@code @SchemaVersion}, at least 1. A class without one is SQL0134, as at deployment; a null
     * type or a version below 1 is SQL0108 ({@code payloadType}).
     */
    public static int schemaVersion(Class<?> payloadType) {
        if (payloadType == null) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                    "payloadType", null, "must be a payload class carrying @SchemaVersion(n) with n >= 1")));
        }
        SchemaVersion version = payloadType.getAnnotation(SchemaVersion.class);
        if (version == null) {
            throw new SqlStreamsException(Code.SQL0134, "payload " + payloadType.getName()
                    + " has no @SchemaVersion; annotate the class with @SchemaVersion(n), n at least 1");
        }
        if (version.value() < 1) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                    "payloadType", payloadType.getName(), "@SchemaVersion must be at least 1")));
        }
        return version.value();
    }

    /**
     * The payload as JSON text; SQL0097 when there is none or it cannot be encoded, or when the text holds what
     * PostgreSQL would not store as given: a NUL, or a lone UTF-16 surrogate (UTF-8 has no encoding for it, and
     * the driver would write a '?' in its place).
     */
    public String encode(Object payload) {
        if (payload == null) {
            throw new SqlStreamsException(Code.SQL0097, "a null payload cannot be produced: a message needs a payload");
        }
        String json;
        try {
            json = jsonb().toJson(payload);
        } catch (JsonbException | IllegalArgumentException failure) {
            throw new SqlStreamsException(Code.SQL0097, "a payload of type " + payload.getClass().getName()
                    + " cannot be encoded as JSON: " + failure.getClass().getSimpleName());
        }
        if (json.contains(NUL_ESCAPE)) {
            throw new SqlStreamsException(Code.SQL0097, "a payload of type " + payload.getClass().getName()
                    + " contains a NUL character, which PostgreSQL jsonb cannot store");
        }
        if (!Utf16.wellFormed(json)) {
            throw new SqlStreamsException(Code.SQL0097, "a payload of type " + payload.getClass().getName()
                    + " contains a lone UTF-16 surrogate, which UTF-8 (and so PostgreSQL) cannot store");
        }
        return json;
    }

    /** The stored JSON decoded as {@code type}; throws {@link JsonbException} when it does not fit. */
    public <T> T decode(String json, Class<T> type) {
        return jsonb().fromJson(json, type);
    }

    private Jsonb jsonb() {
        Jsonb current = jsonb;
        if (current == null) {
            synchronized (this) {
                current = jsonb;
                if (current == null) {
                    current = JsonbBuilder.create();
                    jsonb = current;
                }
            }
        }
        return current;
    }
}
