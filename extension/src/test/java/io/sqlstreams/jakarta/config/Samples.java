package io.sqlstreams.jakarta.config;

import io.sqlstreams.Concurrency;
import io.sqlstreams.Start;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A configured text for a field of each Java type, with the value it must bind to. */
record Samples(String text, Object value) {

    private static final Map<Class<?>, Samples> BY_TYPE = Map.of(
            Duration.class, new Samples("7s", Duration.ofSeconds(7)),
            Integer.class, new Samples("7", 7),
            Concurrency.class, new Samples("exclusive", Concurrency.EXCLUSIVE),
            Start.class, new Samples("head", Start.HEAD),
            List.class, new Samples("orders.*, refunds", List.of("orders.*", "refunds")),
            String.class, new Samples("java:app/concurrent/payments", "java:app/concurrent/payments"));

    /** A sample for a field of {@code type} whose value differs from {@code unlike}. */
    static Samples forType(Class<?> type, Object unlike) {
        if (type == boolean.class) {
            return Objects.equals(unlike, true) ? new Samples("false", false) : new Samples("true", true);
        }
        Samples sample = BY_TYPE.get(type);
        if (sample == null) {
            throw new AssertionError("no sample for a field of type " + type);
        }
        return sample;
    }
}
