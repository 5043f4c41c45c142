package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import javax.sql.DataSource;

import io.sqlstreams.DestroyOptions;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;

/**
 * One repetition of a produce measurement: a freshly registered stream, a producer with default settings,
 * callers producing until the measurement time is up, then the ledger against the stream's log table and the
 * stream's removal.
 */
final class ProduceMeasurement {
    /** Sizes the callers' arrays for up to this many calls a second in all; they grow past it. */
    private static final int EXPECTED_CALLS_PER_SECOND = 50_000;

    private final SqlStreams client;
    private final DataSource dataSource;
    private final String schema;
    private final Duration measurement;
    private final ProduceCallScope scope;
    private final AtomicInteger streams = new AtomicInteger();
    private final AtomicLong payloadIds = new AtomicLong();

    ProduceMeasurement(SqlStreams client, DataSource dataSource, String schema, Duration measurement) {
        this(client, dataSource, schema, measurement, ProduceCallScope.NONE);
    }

    /** As the other constructor, each produce call made inside {@code scope}. */
    ProduceMeasurement(SqlStreams client, DataSource dataSource, String schema, Duration measurement,
                       ProduceCallScope scope) {
        this.client = client;
        this.dataSource = dataSource;
        this.schema = schema;
        this.measurement = measurement;
        this.scope = scope;
    }

    /** {@code producer.produce(message)} from {@code callers} threads at once. */
    Sample produce(int callers) throws Exception {
        return measure("produce-" + callers, callers, 1,
                producer -> List.of(producer.produce(BenchPayload.next(payloadIds.incrementAndGet()))));
    }

    /** {@code producer.produceBatch(items)} of {@code size} items from one thread. */
    Sample produceBatch(int size) throws Exception {
        return measure("batch-" + size, 1, size, producer -> {
            List<ProduceItem<BenchPayload>> items = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                items.add(ProduceItem.of(BenchPayload.next(payloadIds.incrementAndGet())));
            }
            return producer.produceBatch(items);
        });
    }

    private Sample measure(String name, int callers, int messagesPerCall,
                           Function<Producer<BenchPayload>, List<ProduceResult>> call) throws Exception {
        StreamHandle<BenchPayload> stream = client.stream("bench.produce." + streams.incrementAndGet(),
                BenchPayload.class);
        stream.register(StreamConfig.defaults());
        long streamId = stream.get().orElseThrow().id();
        int expectedCalls = (int) Math.min(1 << 20,
                measurement.toMillis() * EXPECTED_CALLS_PER_SECOND / 1000 / callers / messagesPerCall);
        Workers.Outcome<CallerLog> outcome;
        CpuMeter cpu = CpuMeter.start();
        try (Producer<BenchPayload> producer = stream.producer().register()) {
            Workers.Task<CallerLog> caller = start -> {
                CallerLog log = new CallerLog(expectedCalls, messagesPerCall);
                long deadline = start + measurement.toNanos();
                long now;
                do {
                    long before = System.nanoTime();
                    List<ProduceResult> results = scope.around(() -> call.apply(producer));
                    now = System.nanoTime();
                    log.record(now - before, results);
                } while (now < deadline);
                return log;
            };
            outcome = Workers.runTogether(name, measurement, Collections.nCopies(callers, caller));
        }
        List<CallerLog> logs = outcome.values();
        long messages = logs.stream().mapToLong(CallerLog::messages).sum();
        Map<Metric, Double> values = new EnumMap<>(Percentiles.of(logs.stream().map(log -> log.latencyNanos).toList()));
        values.put(Metric.THROUGHPUT, messages / outcome.secondsUntilLast());
        cpu.stop(messages, values);
        String table = schema + ".message_log_" + streamId;
        Ledger ledger = Ledger.ofIds(
                LongList.sortedUnion(logs.stream().map(log -> log.acknowledgedIds).toList()),
                logs.stream().mapToLong(log -> log.duplicates).sum(),
                LedgerQueries.rowCount(dataSource, table), LedgerQueries.sortedIds(dataSource, table));
        stream.destroy(DestroyOptions.forced());
        return new Sample(values, ledger);
    }
}
