package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;

/**
 * BENCHMARKS.md #4, latency, with one session of one group, for claimPollRate 500 ms (the default) and 50 ms:
 * <ul>
 * <li>at 100 and 1,000 msg/s (open-loop, 4 callers of {@code produce()}): p50/p99/p99.9 from the moment
 * {@code produce()} returned (the commit) to handler entry, per message;</li>
 * <li>pickup after idle: with the group caught up and idle for 2 × claimPollRate plus a random part of one more
 * period (so the send falls anywhere in the poll cycle), one message is produced and the time from its
 * {@code produce()} returning to its handler entry is taken; repeated {@code --pickups} times. The producer is
 * on a second client, so the wake-up travels through PostgreSQL as it does between processes.</li>
 * </ul>
 * A negative latency means the handler was entered before the producing thread got back from {@code produce()}.
 */
final class LatencyScenario implements Scenario {
    static final List<Integer> RATES = List.of(100, 1_000);
    static final List<Duration> POLL_RATES = List.of(Duration.ofMillis(500), Duration.ofMillis(50));
    static final Duration DEFAULT_PHASE = Duration.ofSeconds(20);
    static final Duration SMOKE_PHASE = Duration.ofSeconds(2);
    static final int DEFAULT_PICKUPS = 30;
    static final int SMOKE_PICKUPS = 3;
    static final int CALLERS = 4;
    static final int BATCH_LIMIT = 100;
    static final int MESSAGE_CONCURRENCY = 8;
    private static final Duration PICKUP_TIMEOUT = Duration.ofSeconds(10);

    static String rateLabel(int rate, Duration pollRate) {
        return String.format(Locale.ROOT, "commit → handler entry at %,d msg/s, claimPollRate %d ms (handled msg/s;"
                + " ms)", rate, pollRate.toMillis());
    }

    static String pickupLabel(Duration pollRate) {
        return "pickup after idle, claimPollRate " + pollRate.toMillis() + " ms (ms)";
    }

    static String defaultsLabel(int rate) {
        return String.format(Locale.ROOT, "commit → handler entry at %,d msg/s, default ConsumeOptions (handled msg/s;"
                + " ms)", rate);
    }

    static ConsumeOptions consume(Duration pollRate) {
        return ConsumeOptions.builder().batchLimit(BATCH_LIMIT).queueSize(2 * BATCH_LIMIT)
                .messageConcurrency(MESSAGE_CONCURRENCY).claimPollRate(pollRate).build();
    }

    @Override
    public String name() {
        return "latency";
    }

    @Override
    public String title() {
        return "Latency: commit → handler, and pickup after idle (BENCHMARKS.md #4)";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        Duration phase = options.stepLength().orElse(context.smoke() ? SMOKE_PHASE : DEFAULT_PHASE);
        int pickups = options.pickups().orElse(context.smoke() ? SMOKE_PICKUPS : DEFAULT_PICKUPS);
        SqlStreams client = ConsumeClients.one(context);
        SqlStreams producing = ConsumeClients.one(context);
        Repetitions repetitions = context.repetitions();
        List<Figure> figures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "One session (one client), batchLimit %d, queueSize %d,"
                        + " messageConcurrency %d; each repetition on a fresh stream and group. Rates: %.0f s each,"
                        + " %d callers of produce() (default automatic batching), open-loop. Pickups: %d per"
                        + " repetition, one producing thread on a second client (its own connections and wake-up"
                        + " announcer, as another process would have).", BATCH_LIMIT, 2 * BATCH_LIMIT, MESSAGE_CONCURRENCY,
                phase.toMillis() / 1000.0, CALLERS, pickups));
        Duration warmup = Warmup.limit(context);
        int warmupRate = RATES.get(RATES.size() - 1);
        notes.add(Warmup.run(context, rateLabel(warmupRate, POLL_RATES.get(0)).replaceAll(" \\(.*", "") + ", cut to "
                        + warmup.toSeconds() + " s", () -> atRate(context, client, warmupRate, warmup,
                consume(POLL_RATES.get(0)), new ArrayList<>())));
        for (Duration pollRate : POLL_RATES) {
            for (int rate : RATES) {
                List<String> details = new ArrayList<>();
                figures.add(repetitions.measure(rateLabel(rate, pollRate),
                        () -> atRate(context, client, rate, phase, consume(pollRate), details)));
                notes.add(rateLabel(rate, pollRate).replaceAll(" \\(.*", "") + ": " + String.join("; ", details));
            }
            List<String> details = new ArrayList<>();
            figures.add(repetitions.measure(pickupLabel(pollRate),
                    () -> pickups(context, client, producing, pickups, pollRate, details)));
            notes.add(pickupLabel(pollRate).replace(" (ms)", "") + ": " + String.join("; ", details));
        }
        int defaultsRate = RATES.get(RATES.size() - 1);
        List<String> defaultsDetails = new ArrayList<>();
        figures.add(repetitions.measure(defaultsLabel(defaultsRate), () -> atRate(context, client, defaultsRate, phase,
                ConsumeOptions.builder().build(), defaultsDetails)));
        notes.add(defaultsLabel(defaultsRate).replaceAll(" \\(.*", "") + " (batchLimit 4 growing with a backlog,"
                + " messageConcurrency 1, claimPollRate 500 ms): " + String.join("; ", defaultsDetails));
        notes.add("Target (BENCHMARKS.md): pickup after idle p50 ≤ 10 ms across processes.");
        return new ScenarioResult(figures, List.of(), notes);
    }

    /** One repetition at {@code rate}: commit → handler entry of one session on a fresh stream and group. */
    static Sample atRate(BenchContext context, SqlStreams client, int rate, Duration phase, ConsumeOptions consume,
                         List<String> details) throws Exception {
        long total = Math.max(1, Math.round(rate * (phase.toNanos() / 1e9)));
        try (BenchStream stream = BenchStream.register(client, context.dataSource(), context.schema(), "latency")) {
            String group = "latency";
            GroupSessions.declare(client, stream.name(), group);
            HandledLog log = new HandledLog(total, true);
            MessageHandler<BenchPayload> handler = payload -> log.record(MessageMeta.current().messageId(),
                    BenchClock.nowMicros());
            Pacer.Outcome sent;
            long lastHandled;
            try (GroupSessions sessions = GroupSessions.start(List.of(client), stream.name(), group, handler,
                    consume)) {
                try (Producer<BenchPayload> producer = stream.handle().producer().register()) {
                    sent = Pacer.run("latency-" + rate, producer, CALLERS, rate, total, Duration.ofSeconds(10));
                }
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (!log.awaitCount(sent.acknowledged(), Duration.ofSeconds(1)) && System.nanoTime() < deadline) {
                    sessions.checkRunning();
                }
                lastHandled = log.lastNanos();
                sessions.close();
                details.add(sessions.repetitionLine(details));
            }
            Ledger ledger = DeliveryLedger.of(sent.sortedIds(), sent.duplicates(), stream.rows(), stream.storedIds(),
                    log.sortedIds());
            Map<Long, Long> returned = new HashMap<>();
            for (Pacer.SentLog caller : sent.logs()) {
                long[] ids = caller.ids.toArray();
                long[] at = caller.returnedMicros.toArray();
                for (int i = 0; i < ids.length; i++) {
                    returned.put(ids[i], at[i]);
                }
            }
            long[][] pairs = log.pairs();
            LongList latencies = new LongList(pairs[0].length);
            for (int i = 0; i < pairs[0].length; i++) {
                Long committed = returned.get(pairs[0][i]);
                if (committed != null) {
                    latencies.add(pairs[1][i] - committed);
                }
            }
            Map<Metric, Double> values = new EnumMap<>(Metric.class);
            values.put(Metric.THROUGHPUT, log.count() / ((lastHandled - sent.startNanos()) / 1e9));
            values.putAll(LatencyStats.of(latencies.toArray()));
            if (sent.unsent() > 0) {
                details.add(sent.unsent() + " messages unsent: the producer fell behind");
            }
            return new Sample(values, ledger);
        }
    }

    /** One repetition of {@code count} pickups after idle, produced through {@code producing}. */
    static Sample pickups(BenchContext context, SqlStreams client, SqlStreams producing, int count,
                          Duration pollRate, List<String> details) throws Exception {
        try (BenchStream stream = BenchStream.register(client, context.dataSource(), context.schema(), "pickup")) {
            String group = "pickup";
            GroupSessions.declare(client, stream.name(), group);
            HandledLog log = new HandledLog(count, true);
            MessageHandler<BenchPayload> handler = payload -> log.record(MessageMeta.current().messageId(),
                    BenchClock.nowMicros());
            LongList ids = new LongList(count);
            LongList returned = new LongList(count);
            try (GroupSessions sessions = GroupSessions.start(List.of(client), stream.name(), group, handler,
                    consume(pollRate));
                 Producer<BenchPayload> producer = producing.stream(stream.name(), BenchPayload.class).producer()
                         .register()) {
                for (int i = 0; i < count; i++) {
                    long idleMicros = 2 * pollRate.toNanos() / 1000
                            + ThreadLocalRandom.current().nextLong(pollRate.toNanos() / 1000) + 10_000;
                    Thread.sleep(idleMicros / 1000, (int) (idleMicros % 1000) * 1000);
                    ProduceResult result = producer.produce(BenchPayload.next(i));
                    returned.add(BenchClock.nowMicros());
                    ids.add(result.id());
                    if (!log.awaitCount(i + 1, PICKUP_TIMEOUT)) {
                        sessions.checkRunning();
                        throw new IllegalStateException("message " + result.id() + " was not handled within "
                                + PICKUP_TIMEOUT + "; " + sessions.describeCounters());
                    }
                }
                sessions.close();
                details.add(sessions.repetitionLine(details));
            }
            long[] sortedIds = ids.toArray().clone();
            java.util.Arrays.sort(sortedIds);
            Ledger ledger = DeliveryLedger.of(sortedIds, 0, stream.rows(), stream.storedIds(), log.sortedIds());
            Map<Long, Long> entered = new HashMap<>();
            long[][] pairs = log.pairs();
            for (int i = 0; i < pairs[0].length; i++) {
                entered.putIfAbsent(pairs[0][i], pairs[1][i]);
            }
            long[] latencies = new long[ids.size()];
            long[] idArray = ids.toArray();
            long[] returnedArray = returned.toArray();
            for (int i = 0; i < latencies.length; i++) {
                latencies[i] = entered.get(idArray[i]) - returnedArray[i];
            }
            Map<Metric, Double> values = new EnumMap<>(LatencyStats.of(latencies));
            values.remove(Metric.P999);
            long[] sorted = latencies.clone();
            java.util.Arrays.sort(sorted);
            details.add(String.format(Locale.ROOT, "min %.1f ms, max %.1f ms", sorted[0] / 1000.0,
                    sorted[sorted.length - 1] / 1000.0));
            return new Sample(values, ledger);
        }
    }
}
