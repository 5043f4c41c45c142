package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;

/** Fills a stream with {@code produceBatch} calls of 1000 from a few threads, keeping every acknowledged id. */
final class LibraryPrefill {
    static final int BATCH = 1000;
    static final int THREADS = 4;

    /** @param ids every acknowledged id, ascending; @param duplicates results reported as duplicates */
    record Filled(long[] ids, long duplicates, double seconds) {
    }

    private LibraryPrefill() {
    }

    static Filled fill(BenchStream stream, long messages) throws Exception {
        return fill(stream, messages, null);
    }

    /**
     * As {@link #fill(BenchStream, long)}, message {@code i} (0-based) produced with {@code options.apply(i)}.
     *
     * @param options the produce options of each message, by its index; null for none
     */
    static Filled fill(BenchStream stream, long messages, LongFunction<ProduceOptions> options) throws Exception {
        return fill(stream.handle(), messages, options);
    }

    /** As {@link #fill(BenchStream, long)}, each {@code produceBatch} call made inside {@code scope}. */
    static Filled fillInside(BenchStream stream, long messages, ProduceCallScope scope) throws Exception {
        return fill(stream.handle(), messages, null, scope);
    }

    /** As {@link #fill(BenchStream, long, LongFunction)}, for a stream known by its handle alone. */
    static Filled fill(StreamHandle<BenchPayload> stream, long messages, LongFunction<ProduceOptions> options)
            throws Exception {
        return fill(stream, messages, options, ProduceCallScope.NONE);
    }

    private static Filled fill(StreamHandle<BenchPayload> stream, long messages, LongFunction<ProduceOptions> options,
                               ProduceCallScope scope) throws Exception {
        AtomicLong next = new AtomicLong();
        List<CallerLog> logs;
        double seconds;
        try (Producer<BenchPayload> producer = stream.producer().register()) {
            Workers.Task<CallerLog> filler = start -> {
                CallerLog log = new CallerLog((int) (messages / BATCH / THREADS + 2), BATCH);
                while (true) {
                    long from = next.getAndAdd(BATCH);
                    if (from >= messages) {
                        return log;
                    }
                    int size = (int) Math.min(BATCH, messages - from);
                    List<ProduceItem<BenchPayload>> items = new ArrayList<>(size);
                    for (int i = 0; i < size; i++) {
                        items.add(options == null ? ProduceItem.of(BenchPayload.next(from + i))
                                : ProduceItem.of(BenchPayload.next(from + i), options.apply(from + i)));
                    }
                    long before = System.nanoTime();
                    List<ProduceResult> results = scope.around(() -> producer.produceBatch(items));
                    log.record(System.nanoTime() - before, results);
                }
            };
            Workers.Outcome<CallerLog> outcome = Workers.runTogether("prefill",
                    Duration.ofSeconds(messages / 2_000 + 60), Collections.nCopies(THREADS, filler));
            logs = outcome.values();
            seconds = outcome.secondsUntilLast();
        }
        return new Filled(LongList.sortedUnion(logs.stream().map(l -> l.acknowledgedIds).toList()),
                logs.stream().mapToLong(l -> l.duplicates).sum(), seconds);
    }
}
