package io.sqlstreams.bench;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * CPU spent from {@link #start()} on, by the local PostgreSQL's processes and by this JVM, shared among what a
 * measurement wrote: where a writer's time goes, server or client. The server's share is left out when no local
 * {@code postgres} process can be read (a server on another machine).
 */
final class CpuMeter {
    private static final List<Long> SELF = List.of(ProcessHandle.current().pid());

    private final OptionalLong postgresBefore;
    private final long clientBefore;

    private CpuMeter() {
        this.postgresBefore = ProcessCpu.postgres();
        this.clientBefore = ProcessCpu.of(SELF);
    }

    static CpuMeter start() {
        return new CpuMeter();
    }

    /** Adds {@link Metric#POSTGRES_MICROS} and {@link Metric#CLIENT_MICROS} per one of {@code written} to {@code values}. */
    void stop(long written, Map<Metric, Double> values) {
        OptionalLong postgresAfter = ProcessCpu.postgres();
        double per = Math.max(1, written);
        if (postgresBefore.isPresent() && postgresAfter.isPresent()) {
            values.put(Metric.POSTGRES_MICROS,
                    ProcessCpu.micros(postgresAfter.getAsLong() - postgresBefore.getAsLong()) / per);
        }
        values.put(Metric.CLIENT_MICROS, ProcessCpu.micros(ProcessCpu.of(SELF) - clientBefore) / per);
    }
}
