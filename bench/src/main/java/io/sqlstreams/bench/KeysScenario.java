package io.sqlstreams.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.SqlStreams;

/**
 * BENCHMARKS.md #7, keys: N messages whose message key is {@code k<i mod keys>}, for 1, 64, 1,024 and 100,000
 * distinct keys, drained by one group declared with {@code concurrencyOverride} exclusive or ordered (2 sessions,
 * each its own client, batchLimit 1000, queueSize 2000, messageConcurrency 8), against the same N unkeyed messages
 * drained the same way with the default policy. The handler checks what the policy promises: no two runs of one
 * key at a time, for ordered no success of a lower id after a higher id of the same key, and no id run twice; any
 * of them fails the ledger.
 */
final class KeysScenario implements Scenario {
    static final long DEFAULT_MESSAGES = 100_000;
    static final long SMOKE_MESSAGES = 2_000;
    static final List<Integer> KEYS = List.of(1, 64, 1_024, 100_000);
    static final List<Integer> SMOKE_KEYS = List.of(1, 64);
    static final List<Concurrency> POLICIES = List.of(Concurrency.EXCLUSIVE, Concurrency.ORDERED);
    static final int SESSIONS = 2;
    static final ConsumeOptions CONSUME = ConsumeOptions.builder().batchLimit(1000).queueSize(2000)
            .messageConcurrency(8).build();

    private final AtomicInteger groups = new AtomicInteger();

    /** The figure's label: keyed under {@code policy}, or the unkeyed reference when it is null. */
    static String label(Concurrency policy, int keys, long messages) {
        if (policy == null) {
            return unkeyedLabel(messages);
        }
        return "keys " + policy.wireName() + ", " + String.format(Locale.ROOT, "%,d", keys)
                + (keys == 1 ? " key" : " keys") + ", drain " + String.format(Locale.ROOT, "%,d", messages)
                + " (msg/s)";
    }

    static String unkeyedLabel(long messages) {
        return "unkeyed (parallel), drain " + String.format(Locale.ROOT, "%,d", messages) + " (msg/s)";
    }

    static String key(long index, int keys) {
        return "k" + index % keys;
    }

    @Override
    public String name() {
        return "keys";
    }

    @Override
    public String title() {
        return "Keys: exclusive and ordered against unkeyed (BENCHMARKS.md #7)";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        long messages = context.options().messages().orElse(context.smoke() ? SMOKE_MESSAGES : DEFAULT_MESSAGES);
        List<Integer> keyCounts = context.smoke() ? SMOKE_KEYS : KEYS;
        List<Figure> figures = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "N = %,d messages per drain; message i has key k<i mod keys>; %d sessions"
                        + " (each its own client), batchLimit %d, queueSize %d, messageConcurrency %d; each keyed drain"
                        + " is a fresh group declared with concurrencyOverride, the unkeyed reference a fresh group"
                        + " with the default policy. %% of baseline = of the unkeyed drain's median in this run.",
                messages, SESSIONS, CONSUME.batchLimit(), CONSUME.queueSize(), CONSUME.resolvedMessageConcurrency()));

        SqlStreams admin = ConsumeClients.one(context);
        List<SqlStreams> clients = ConsumeClients.create(context, SESSIONS);
        Figure unkeyed = measureStream(context, admin, clients, messages, 0, List.of(), true, notes).get(0);
        figures.add(0, unkeyed);
        for (int keys : keyCounts) {
            for (Figure figure : measureStream(context, admin, clients, messages, keys, POLICIES, false, notes)) {
                figures.add(figure);
                comparisons.add(new Comparison(figure, unkeyed, "same N, same sessions, no key"));
            }
        }
        return new ScenarioResult(figures, comparisons, notes);
    }

    /**
     * Pre-fills one stream ({@code keys} 0: unkeyed) and drains it under each policy (none: the default), with
     * {@code warmUp} one unmeasured drain under the first policy before the first measured one.
     */
    private List<Figure> measureStream(BenchContext context, SqlStreams admin, List<SqlStreams> clients,
                                       long messages, int keys, List<Concurrency> policies, boolean warmUp,
                                       List<String> notes) throws Exception {
        Progress progress = context.progress();
        progress.note(String.format(Locale.ROOT, "pre-filling %,d messages, %s", messages,
                keys == 0 ? "unkeyed" : keys + " distinct keys"));
        List<Figure> result = new ArrayList<>();
        try (BenchStream stream = BenchStream.register(admin, context.dataSource(), context.schema(),
                keys == 0 ? "keys-none" : "keys-" + keys)) {
            LibraryPrefill.Filled filled = LibraryPrefill.fill(stream, messages,
                    keys == 0 ? null : i -> ProduceOptions.builder().messageKey(key(i, keys)).build());
            GroupDrain drain = GroupDrain.of(context, stream, filled);
            List<Concurrency> each = policies.isEmpty() ? java.util.Collections.singletonList(null) : policies;
            if (warmUp) {
                Concurrency first = each.get(0);
                notes.add(Warmup.run(context, label(first, keys, messages).replace(" (msg/s)", ""),
                        () -> drainOnce(context, clients, drain, first, new ArrayList<>())));
            }
            for (Concurrency policy : each) {
                List<String> details = new ArrayList<>();
                String label = label(policy, keys, messages);
                Figure figure = context.repetitions().measure(label,
                        () -> drainOnce(context, clients, drain, policy, details));
                result.add(figure);
                notes.add(label.replace(" (msg/s)", "") + String.format(Locale.ROOT, " (pre-fill %.1f s): ",
                        filled.seconds()) + String.join("; ", details));
            }
        }
        return result;
    }

    /** Per-key state the handler checks against. */
    private static final class KeyState {
        final AtomicInteger running = new AtomicInteger();
        final AtomicLong highest = new AtomicLong(Long.MIN_VALUE);
    }

    private Sample drainOnce(BenchContext context, List<SqlStreams> clients, GroupDrain drain, Concurrency policy,
                             List<String> details) throws Exception {
        Map<String, KeyState> states = new ConcurrentHashMap<>();
        LongAdder overlaps = new LongAdder();
        LongAdder orderViolations = new LongAdder();
        Function<HandledLog, MessageHandler<BenchPayload>> handler = log -> payload -> {
            MessageMeta meta = MessageMeta.current();
            String key = meta.messageKey();
            if (key == null) {
                log.record(meta.messageId());
                return;
            }
            KeyState state = states.get(key);
            if (state == null) {
                state = states.computeIfAbsent(key, k -> new KeyState());
            }
            if (state.running.incrementAndGet() > 1) {
                overlaps.increment();
            }
            try {
                long id = meta.messageId();
                if (state.highest.getAndAccumulate(id, Math::max) > id) {
                    orderViolations.increment();
                }
                log.record(id);
            } finally {
                state.running.decrementAndGet();
            }
        };
        ConsumerConfig config = policy == null ? ConsumerConfig.defaults()
                : ConsumerConfig.builder().concurrencyOverride(policy).build();
        GroupDrain.Outcome outcome = drain.run(clients, "keys-" + groups.incrementAndGet(), config, CONSUME, handler,
                false, Optional.empty(), details);
        long[] handled = outcome.handledIds();
        long doubleRuns = handled.length - java.util.Arrays.stream(handled).distinct().count();
        long ordered = policy == Concurrency.ORDERED ? orderViolations.sum() : 0;
        if (policy == Concurrency.EXCLUSIVE && orderViolations.sum() > 0) {
            details.add(orderViolations.sum() + " out-of-order successes (exclusive does not promise order)");
        }
        Ledger ledger = outcome.ledger().withViolations(ordered + overlaps.sum() + doubleRuns);
        Map<Metric, Double> values = new EnumMap<>(Metric.class);
        values.put(Metric.THROUGHPUT, outcome.throughput());
        if (policy == Concurrency.ORDERED) {
            values.put(Metric.ORDER_VIOLATIONS, (double) ordered);
        }
        if (policy != null) {
            values.put(Metric.OVERLAPS, (double) overlaps.sum());
        }
        values.put(Metric.DOUBLE_RUNS, (double) doubleRuns);
        context.progress().note("  group: " + GroupSessions.describe(outcome.after()) + (policy == null ? ""
                : String.format(Locale.ROOT, "; order violations %d, overlaps %d, double runs %d",
                orderViolations.sum(), overlaps.sum(), doubleRuns)));
        return new Sample(values, ledger);
    }
}
