package io.sqlstreams.engine.telemetry;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Supplier;

import io.sqlstreams.Code;
import io.sqlstreams.Measurement;
import io.sqlstreams.MetricDefinition;
import io.sqlstreams.engine.Diagnostics;

/**
 * One consumer group's built-in gauges (those of the catalogue's group scope) as exporters ask for them, one gauge at a
 * time: all of them are read together when the last reading is older than {@link #FRESH_FOR}, so one collection
 * costs one read. A failed read is logged as SQL0154 and leaves the group without values until the next one.
 */
public final class GroupGaugeReading {
    static final Duration FRESH_FOR = Duration.ofSeconds(10);

    private final GroupKey group;
    private final List<MetricDefinition> definitions;
    private final Supplier<List<Measurement>> source;
    private final Diagnostics diagnostics;
    private Map<String, Double> values = Map.of();
    private long readAtNanos;
    private boolean read;

    GroupGaugeReading(GroupKey group, List<MetricDefinition> definitions, Supplier<List<Measurement>> source,
                      Diagnostics diagnostics) {
        this.group = group;
        this.definitions = definitions;
        this.source = source;
        this.diagnostics = diagnostics;
    }

    /** The gauges the reading holds. */
    public List<MetricDefinition> definitions() {
        return definitions;
    }

    public String stream() {
        return group.stream();
    }

    public String group() {
        return group.group();
    }

    /** The gauge called {@code metric}, read afresh when the last reading is stale; empty when unread. */
    public synchronized OptionalDouble value(String metric) {
        long now = System.nanoTime();
        if (!read || now - readAtNanos >= FRESH_FOR.toNanos()) {
            read = true;
            readAtNanos = now;
            values = readAll();
        }
        Double value = values.get(metric);
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    private Map<String, Double> readAll() {
        try {
            Map<String, Double> all = new HashMap<>();
            for (Measurement measurement : source.get()) {
                all.put(measurement.name(), measurement.value());
            }
            return all;
        } catch (RuntimeException unread) {
            diagnostics.event(Code.SQL0154, "telemetry could not read the gauges of consumer group " + group.group()
                    + " on stream " + group.stream() + "; they are not reported until the next reading, in "
                    + FRESH_FOR.toSeconds() + " s: " + unread);
            return Map.of();
        }
    }
}
