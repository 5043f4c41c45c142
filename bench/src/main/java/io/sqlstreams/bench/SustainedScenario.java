package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.SqlStreams;

/**
 * BENCHMARKS.md #3, sustained produce + consume: an open-loop producer ({@code produce()} with automatic batching
 * from 16–512 caller threads, each sending at its scheduled times, the scheduled time in the payload) at each rate
 * of a ladder, one step per rate on a fresh stream, one group with two sessions. A step passes when the backlog
 * (head − committed, sampled every second) did not grow over the step by more than one second of messages (the
 * committed cursor moves once a second), every scheduled message was produced and handled, and the end-to-end
 * p99 (scheduled send → handler entry) is at most 1 s. Every repetition climbs the whole ladder.
 */
final class SustainedScenario implements Scenario {
    static final List<Integer> DEFAULT_RATES = List.of(5_000, 10_000, 20_000, 40_000);
    static final List<Integer> SMOKE_RATES = List.of(500);
    static final Duration DEFAULT_STEP = Duration.ofSeconds(30);
    static final Duration SMOKE_STEP = Duration.ofSeconds(3);
    static final int SESSIONS = 2;
    static final int BATCH_LIMIT = 1000;
    static final int MESSAGE_CONCURRENCY = 8;
    static final double P99_LIMIT_MS = 1000;
    static final int MESSAGES_PER_CALLER_SECOND = 50;
    static final int MAX_CALLERS = 512;
    static final ConsumeOptions CONSUME = ConsumeOptions.builder().batchLimit(BATCH_LIMIT).queueSize(2 * BATCH_LIMIT)
            .messageConcurrency(MESSAGE_CONCURRENCY).build();

    static String stepLabel(int rate) {
        return String.format(Locale.ROOT, "sustained at %,d msg/s offered, %d sessions (handled msg/s; e2e ms)", rate,
                SESSIONS);
    }

    static final String HIGHEST_LABEL = "sustained: highest passing rate (msg/s; e2e ms at that rate)";

    /**
     * Blocking callers for an offered rate: each has callers ÷ rate seconds per call, 20 ms here. With fewer (a 4 ms
     * budget at rate/250) a call's commit latency beside the consumers used the whole budget, and the producer fell
     * behind its schedule at 5,000 msg/s with the sessions idle half the time: the step measured the caller count.
     */
    static int callers(int rate) {
        return Math.max(16, Math.min(MAX_CALLERS, rate / MESSAGES_PER_CALLER_SECOND));
    }

    @Override
    public String name() {
        return "sustained";
    }

    @Override
    public String title() {
        return "Sustained produce + consume (BENCHMARKS.md #3)";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        List<Integer> rates = options.rates().isEmpty() ? context.smoke() ? SMOKE_RATES : DEFAULT_RATES
                : options.rates();
        Duration step = options.stepLength().orElse(context.smoke() ? SMOKE_STEP : DEFAULT_STEP);
        int repetitions = options.repetitions();
        SqlStreams admin = ConsumeClients.one(context);
        List<SqlStreams> clients = ConsumeClients.create(context, SESSIONS);
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "Ladder %s msg/s, %.0f s per step, %d repetitions of the whole ladder;"
                        + " each step on a fresh stream. Consume: %d sessions (one client each), batchLimit %d,"
                        + " queueSize %d, messageConcurrency %d, claimPollRate default. Produce: produce() with"
                        + " default automatic batching from max(16, min(%d, rate/%d)) callers.", rates,
                step.toMillis() / 1000.0, repetitions, SESSIONS, BATCH_LIMIT, 2 * BATCH_LIMIT, MESSAGE_CONCURRENCY,
                MAX_CALLERS, MESSAGES_PER_CALLER_SECOND));
        Map<Integer, List<Sample>> byRate = new LinkedHashMap<>();
        List<Sample> highest = new ArrayList<>();
        for (int rep = 1; rep <= repetitions; rep++) {
            Sample best = null;
            int bestRate = 0;
            for (int rate : rates) {
                context.progress().note(stepLabel(rate) + " — repetition " + rep + "/" + repetitions);
                List<String> details = new ArrayList<>();
                Sample sample = step(context, admin, clients, rate, step, details);
                context.progress().note("  → " + sample.describe());
                notes.add(String.format(Locale.ROOT, "rep %d, %,d msg/s: %s — %s", rep, rate,
                        sample.values().get(Metric.PASSED) == 1 ? "PASSED" : "failed", String.join("; ", details)));
                byRate.computeIfAbsent(rate, r -> new ArrayList<>()).add(sample);
                if (sample.values().get(Metric.PASSED) == 1 && rate > bestRate) {
                    best = sample;
                    bestRate = rate;
                }
            }
            highest.add(highestSample(best, bestRate, byRate.get(rates.get(0)).get(rep - 1)));
        }
        List<Figure> figures = new ArrayList<>();
        byRate.forEach((rate, samples) -> figures.add(new Figure(stepLabel(rate), samples)));
        Figure top = new Figure(HIGHEST_LABEL, highest);
        figures.add(top);
        List<Comparison> comparisons = List.of(new Comparison(top, context.baselines().logAndCursor(),
                "baseline (b)'s produced msg/s; its consumed msg/s is in the baselines table"));
        notes.add(String.format(Locale.ROOT, "Highest passing rate: median %,.0f msg/s (per repetition: %s).",
                top.throughput().median(), highest.stream().map(s -> String.format(Locale.ROOT, "%,.0f",
                        s.values().get(Metric.THROUGHPUT))).toList()));
        return new ScenarioResult(figures, comparisons, notes);
    }

    /** The highest-passing figure of one repetition: that step's latencies; 0 msg/s when no step passed. */
    private static Sample highestSample(Sample best, int rate, Sample fallback) {
        Map<Metric, Double> values = new EnumMap<>(Metric.class);
        if (best == null) {
            values.put(Metric.THROUGHPUT, 0.0);
            values.put(Metric.P50, Double.NaN);
            values.put(Metric.P99, Double.NaN);
            values.put(Metric.P999, Double.NaN);
            return new Sample(values, fallback.ledger());
        }
        values.put(Metric.THROUGHPUT, (double) rate);
        values.put(Metric.P50, best.values().get(Metric.P50));
        values.put(Metric.P99, best.values().get(Metric.P99));
        values.put(Metric.P999, best.values().get(Metric.P999));
        return new Sample(values, best.ledger());
    }

    private Sample step(BenchContext context, SqlStreams admin, List<SqlStreams> clients, int rate, Duration step,
                        List<String> details) throws Exception {
        long total = Math.max(1, Math.round(rate * (step.toNanos() / 1e9)));
        int callers = callers(rate);
        try (PacedStep paced = PacedStep.register(context, admin, "sustained", ConsumerConfig.defaults())) {
            HandledLog log = new HandledLog(total / MESSAGE_CONCURRENCY / SESSIONS + 1024, true);
            MessageHandler<BenchPayload> handler = payload -> log.record(MessageMeta.current().messageId(),
                    BenchClock.nowMicros() - payload.sentAtMicros());
            PacedStep.Outcome run = paced.run(clients, handler, log, CONSUME, rate, total, callers,
                    (sent, slice) -> log.awaitCount(sent.acknowledged(), slice));
            details.add(run.counters());
            details.addAll(run.failures());
            Pacer.Outcome sent = run.sent();
            Ledger ledger = DeliveryLedger.of(sent.sortedIds(), sent.duplicates(), paced.stream().rows(),
                    paced.stream().storedIds(), log.sortedIds());
            Map<Metric, Double> values = run.values(rate);
            double growth = BacklogSampler.growth(run.backlog());
            values.put(Metric.BACKLOG_GROWTH, growth);
            List<String> failed = new ArrayList<>();
            if (growth > rate) {
                failed.add(String.format(Locale.ROOT, "backlog grew by %,.0f messages", growth));
            }
            if (sent.unsent() > 0) {
                failed.add(String.format(Locale.ROOT, "the producer fell %d s behind and left %,d of %,d unsent",
                        PacedStep.GIVE_UP.toSeconds(), sent.unsent(), total));
            }
            if (!run.settled() || ledger.undelivered() > 0 || sent.acknowledged() != total) {
                failed.add(String.format(Locale.ROOT, "produced %,d of %,d, handled %,d, undelivered %,d",
                        sent.acknowledged(), total, log.count(), ledger.undelivered()));
            }
            if (values.get(Metric.P99) > P99_LIMIT_MS) {
                failed.add(String.format(Locale.ROOT, "p99 %.0f ms > %.0f ms", values.get(Metric.P99), P99_LIMIT_MS));
            }
            values.put(Metric.PASSED, failed.isEmpty() ? 1.0 : 0.0);
            details.add(0, String.format(Locale.ROOT, "%d callers; produced %,d in %.1f s; backlog samples %s",
                    callers, sent.acknowledged(), sent.seconds(), run.backlog().stream()
                            .map(BacklogSampler.Point::backlog).toList()));
            if (!failed.isEmpty()) {
                details.add(0, String.join(", ", failed));
            }
            return new Sample(values, ledger);
        }
    }
}
