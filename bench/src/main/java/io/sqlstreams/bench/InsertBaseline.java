package io.sqlstreams.bench;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

import javax.sql.DataSource;

/** Baseline (a): raw JDBC batched INSERT of 1 KB JSON rows into a fresh log table, one transaction per batch. */
final class InsertBaseline {

    /** How the inserts are shaped: rows per transaction and concurrent connections. */
    record Shape(int batchSize, int threads) {
        String label() {
            return "raw INSERT, batch " + batchSize + ", " + threads + (threads == 1 ? " thread" : " threads")
                    + " (rows/s)";
        }
    }

    static final Shape BATCH_100 = new Shape(100, 1);
    static final Shape BATCH_1000 = new Shape(1000, 1);
    static final Shape BATCH_1000_TWO_THREADS = new Shape(1000, 2);

    private final DataSource dataSource;
    private final String schema;
    private final Duration measurement;

    InsertBaseline(DataSource dataSource, String schema, Duration measurement) {
        this.dataSource = dataSource;
        this.schema = schema;
        this.measurement = measurement;
    }

    Sample measureOnce(Shape shape) throws Exception {
        try (RawLog log = RawLog.create(dataSource, schema)) {
            CpuMeter cpu = CpuMeter.start();
            Workers.Task<Long> inserter = start -> log.insertUntil(shape.batchSize(), start + measurement.toNanos(),
                    () -> { });
            Workers.Outcome<Long> outcome = Workers.runTogether("insert-" + shape.batchSize(), measurement,
                    Collections.nCopies(shape.threads(), inserter));
            long rows = outcome.values().stream().mapToLong(Long::longValue).sum();
            Map<Metric, Double> values = new EnumMap<>(Metric.class);
            values.put(Metric.THROUGHPUT, rows / outcome.secondsUntilLast());
            cpu.stop(rows, values);
            return new Sample(values, log.ledger(rows));
        }
    }
}
