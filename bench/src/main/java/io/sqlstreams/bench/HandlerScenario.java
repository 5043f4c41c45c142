package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.SessionCounters;
import io.sqlstreams.SqlStreams;

/**
 * BENCHMARKS.md #5, handler time: a handler that sleeps 0, 1, 10 or 100 ms, at messageConcurrency 1, 16 and 256, one
 * group with one session. Each cell drains a stream pre-filled with about one measurement's worth of messages at
 * the bound (concurrency ÷ handler time), at most {@code --messages}, so the session is never starved and the slow
 * cells are bounded by time. A cell is held against its bound; a 0 ms handler has none and is held against a no-op
 * drain measured in the same run. No lease may be reclaimed: every claimed message must start well inside its lease.
 */
final class HandlerScenario implements Scenario {
    static final List<Integer> HANDLER_MILLIS = List.of(0, 1, 10, 100);
    static final List<Integer> CONCURRENCY = List.of(1, 16, 256);
    static final long DEFAULT_MESSAGES = 20_000;
    static final long SMOKE_MESSAGES = 1_000;
    static final int MAX_BATCH = 1000;
    /** The drain a 0 ms handler is held against: the {@code drain} scenario's one-session shape. */
    static final ConsumeOptions REFERENCE = ConsumeOptions.builder().batchLimit(1000).queueSize(2000)
            .messageConcurrency(8).build();
    static final String REFERENCE_LABEL = "drain reference: no-op handler, messageConcurrency 8, batchLimit 1000,"
            + " queueSize 2000 (msg/s)";
    static final String GRID_TITLE = "Handled ÷ bound (median; a 0 ms handler: ÷ the drain reference)";

    private final AtomicInteger groups = new AtomicInteger();

    static String label(int handlerMillis, int concurrency) {
        return "handler " + handlerMillis + " ms, messageConcurrency " + concurrency + " (msg/s)";
    }

    /** messageConcurrency ÷ handler time, in msg/s; infinite for a 0 ms handler. */
    static double bound(int handlerMillis, int concurrency) {
        return concurrency * 1000.0 / handlerMillis;
    }

    /**
     * About one second of work at the bound, at least one message per handler thread, at most {@link #MAX_BATCH}: the
     * queue (two batches) then holds about two seconds of work, far inside the lease's queue margin (15 s), so a
     * claimed message never waits long enough for its lease to run short.
     */
    static int batchLimit(int handlerMillis, int concurrency) {
        if (handlerMillis == 0) {
            return Math.max(concurrency, MAX_BATCH);
        }
        return Math.max(concurrency, (int) Math.min(MAX_BATCH, bound(handlerMillis, concurrency)));
    }

    /** The messages a cell drains: one measurement at its bound, at least one, at most {@code cap}. */
    static long messages(int handlerMillis, int concurrency, Duration measurement, long cap) {
        if (handlerMillis == 0) {
            return cap;
        }
        return Math.max(1, Math.min(cap, Math.round(bound(handlerMillis, concurrency) * measurement.toNanos() / 1e9)));
    }

    @Override
    public String name() {
        return "handler";
    }

    @Override
    public String title() {
        return "Handler time against the bound concurrency ÷ handler time (BENCHMARKS.md #5)";
    }

    /** The lease figures every cell adds to, for the invariants. */
    private static final class Leases {
        final LongAdder reclaimed = new LongAdder();
        final LongAdder lost = new LongAdder();
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        long cap = options.messages().orElse(context.smoke() ? SMOKE_MESSAGES : DEFAULT_MESSAGES);
        List<Integer> millis = options.handler().handlerMillis().isEmpty() ? HANDLER_MILLIS
                : options.handler().handlerMillis();
        List<Integer> concurrencies = options.handler().concurrency().isEmpty() ? CONCURRENCY
                : options.handler().concurrency();
        SqlStreams admin = ConsumeClients.one(context);
        List<SqlStreams> client = ConsumeClients.create(context, 1);
        Repetitions repetitions = context.repetitions();
        Leases leases = new Leases();
        List<Figure> figures = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "One group, one session (one client); the handler sleeps its time"
                + " (Thread.sleep) and records the message id and its own time. Each cell drains a stream pre-filled"
                + " with bound × %.1f s messages (at least 1, at most %,d; a 0 ms handler: %,d) with a fresh group per"
                + " repetition: msg/s from the session's start to the last handler exit. batchLimit = one second at"
                + " the bound, at least the concurrency, at most %d; queueSize twice that.",
                context.measurement().toMillis() / 1000.0, cap, cap, MAX_BATCH));
        Figure reference;
        try (PrefilledStreams streams = new PrefilledStreams(context, admin, "handler")) {
            GroupDrain referenceDrain = streams.holding(cap);
            notes.add(Warmup.run(context, REFERENCE_LABEL.replace(" (msg/s)", ""), () -> cell(client, referenceDrain,
                    0, REFERENCE, new Leases(), new ArrayList<>())));
            List<String> referenceDetails = new ArrayList<>();
            reference = repetitions.measure(REFERENCE_LABEL, () -> cell(client, referenceDrain, 0, REFERENCE,
                    leases, referenceDetails));
            figures.add(reference);
            notes.add(REFERENCE_LABEL.replace(" (msg/s)", "") + ": " + String.join("; ", referenceDetails));
            for (int handlerMillis : millis) {
                for (int concurrency : concurrencies) {
                    int batchLimit = batchLimit(handlerMillis, concurrency);
                    ConsumeOptions consume = ConsumeOptions.builder().batchLimit(batchLimit).queueSize(2 * batchLimit)
                            .messageConcurrency(concurrency).build();
                    GroupDrain drain = streams.holding(messages(handlerMillis, concurrency, context.measurement(),
                            cap));
                    List<String> details = new ArrayList<>();
                    Figure figure = repetitions.measure(label(handlerMillis, concurrency),
                            () -> cell(client, drain, handlerMillis, consume, leases, details));
                    figures.add(figure);
                    if (handlerMillis == 0) {
                        comparisons.add(new Comparison(figure, reference, "a 0 ms handler has no bound"));
                    }
                    notes.add(String.format(Locale.ROOT, "%s: batchLimit %d, queueSize %d, %,d messages; %s",
                            label(handlerMillis, concurrency).replace(" (msg/s)", ""), batchLimit, 2 * batchLimit,
                            drain.messages(), String.join("; ", details)));
                }
            }
            notes.add("Pre-fills (produceBatch of " + LibraryPrefill.BATCH + " from " + LibraryPrefill.THREADS
                    + " threads): " + String.join(", ", streams.fills()) + ".");
        }
        notes.add("The bound uses the nominal handler time; the handler ms column is the handler's own mean time,"
                + " sleep overshoot included.");
        List<Invariant> invariants = List.of(
                Invariant.zero("lease reclaims", leases.reclaimed.sum(), "expired range leases the session took"
                        + " over, in every cell and repetition: a claimed message waited past its lease"),
                Invariant.zero("leases lost", leases.lost.sum(), "range or row commits that found their lease"
                        + " taken over"));
        return new ScenarioResult(figures, comparisons, notes, invariants,
                List.of(grid(figures, reference, millis, concurrencies)));
    }

    private Sample cell(List<SqlStreams> client, GroupDrain drain, int handlerMillis, ConsumeOptions consume,
                        Leases leases, List<String> details) throws Exception {
        GroupDrain.Outcome outcome = drain.run(client, "handler-" + groups.incrementAndGet(),
                ConsumerConfig.defaults(), consume, log -> sleeping(handlerMillis, log), true, Optional.empty(),
                details);
        SessionCounters counters = outcome.counters();
        leases.reclaimed.add(counters.reclaimed());
        leases.lost.add(counters.leaseLost());
        Map<Metric, Double> values = new EnumMap<>(Metric.class);
        double throughput = outcome.throughput();
        values.put(Metric.THROUGHPUT, throughput);
        if (handlerMillis > 0) {
            double bound = bound(handlerMillis, consume.resolvedMessageConcurrency());
            values.put(Metric.BOUND, bound);
            values.put(Metric.OF_BOUND, 100 * throughput / bound);
        }
        values.put(Metric.HANDLER_MS, Arrays.stream(outcome.log().pairs()[1]).average().orElse(0) / 1000);
        values.put(Metric.LEASE_RECLAIMS, (double) counters.reclaimed());
        return new Sample(values, outcome.ledger());
    }

    /** Sleeps {@code millis} (none for 0), then records the id with the handler's own time in microseconds. */
    private static MessageHandler<BenchPayload> sleeping(int millis, HandledLog log) {
        return payload -> {
            long entered = System.nanoTime();
            if (millis > 0) {
                Thread.sleep(millis);
            }
            log.record(MessageMeta.current().messageId(), (System.nanoTime() - entered) / 1000);
        };
    }

    /** Each cell's median ratio in a grid: handler time down, concurrency across. */
    private static SeriesTable grid(List<Figure> figures, Figure reference, List<Integer> millis,
                                    List<Integer> concurrencies) {
        List<String> headings = new ArrayList<>(List.of("handler"));
        concurrencies.forEach(c -> headings.add("concurrency " + c + " →"));
        List<List<String>> rows = new ArrayList<>();
        for (int handlerMillis : millis) {
            List<String> cells = new ArrayList<>(List.of(handlerMillis + " ms"));
            for (int concurrency : concurrencies) {
                Figure figure = figures.stream().filter(f -> f.label().equals(label(handlerMillis, concurrency)))
                        .findFirst().orElseThrow();
                double handled = figure.throughput().median();
                cells.add(handlerMillis == 0
                        ? String.format(Locale.ROOT, "%.1f %% of the drain reference (%,.0f of %,.0f /s)",
                                100 * handled / reference.throughput().median(), handled,
                                reference.throughput().median())
                        : String.format(Locale.ROOT, "%.1f %% (%,.0f of %,.0f /s)",
                                figure.summary(Metric.OF_BOUND).orElseThrow().median(), handled,
                                bound(handlerMillis, concurrency)));
            }
            rows.add(cells);
        }
        return new SeriesTable(GRID_TITLE, headings, rows);
    }
}
