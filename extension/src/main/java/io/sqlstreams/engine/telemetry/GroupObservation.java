package io.sqlstreams.engine.telemetry;

/** A consumer group's gauges being reported, from a session's start until the observation closes. */
public interface GroupObservation extends AutoCloseable {
    GroupObservation NONE = () -> {
    };

    @Override
    void close();
}
