package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.SqlStreams;

/**
 * BENCHMARKS.md #2, drain: a stream pre-filled with N messages, drained by one fresh consumer group per
 * repetition with a no-op handler that records each message id, by 1 and 4 sessions, batchLimit 100 and 1000
 * (queueSize twice that), messageConcurrency 1 and 8, and 1 session at the default options: msg/s from the first
 * session's start (its claim loop running) to the last handled message. Held against the raw cursor reader alone
 * draining N pre-filled raw rows (N=100 and 1000 per read), with db-scheduler and JobRunr draining no-op tasks on
 * the same server beside it; the default options against the same run's tuned single session.
 */
final class DrainScenario implements Scenario {
    static final long DEFAULT_MESSAGES = 1_000_000;
    static final long SMOKE_MESSAGES = 20_000;
    static final long DEFAULT_COMPETITOR_TASKS = 50_000;
    static final long SMOKE_COMPETITOR_TASKS = 1_000;
    static final List<Integer> SESSIONS = List.of(1, 4);
    static final List<Integer> BATCH_LIMITS = List.of(100, 1000);
    static final List<Integer> CONCURRENCY = List.of(1, 8);

    private final AtomicInteger groups = new AtomicInteger();

    static String label(int sessions, int batchLimit, int concurrency, long messages) {
        return "drain " + String.format(Locale.ROOT, "%,d", messages) + ", " + sessions
                + (sessions == 1 ? " session" : " sessions") + ", batchLimit " + batchLimit + ", queueSize "
                + 2 * batchLimit + ", messageConcurrency " + concurrency + " (msg/s)";
    }

    @Override
    public String name() {
        return "drain";
    }

    @Override
    public String title() {
        return "Drain a pre-filled stream (BENCHMARKS.md #2)";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        long messages = options.messages().orElse(context.smoke() ? SMOKE_MESSAGES : DEFAULT_MESSAGES);
        long tasks = options.competitorMessages().orElse(context.smoke() ? SMOKE_COMPETITOR_TASKS
                : DEFAULT_COMPETITOR_TASKS);
        Repetitions repetitions = context.repetitions();
        Progress progress = context.progress();
        List<Figure> figures = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "N = %,d messages per library drain and per raw drain; %,d tasks per"
                + " db-scheduler / JobRunr drain (the figure is a rate).", messages, tasks));

        // The raw baseline: the cursor reader alone over N pre-filled raw rows.
        Map<Integer, Figure> raw = new java.util.HashMap<>();
        progress.note(String.format(Locale.ROOT, "filling a raw log with %,d rows", messages));
        try (RawDrain rawDrain = RawDrain.fill(context.dataSource(), context.schema(), messages)) {
            for (int readBatch : BATCH_LIMITS) {
                Figure figure = repetitions.measure(RawDrain.label(readBatch, rawDrain.rows()),
                        () -> rawDrain.drainOnce(readBatch));
                raw.put(readBatch, figure);
                figures.add(figure);
            }
        }

        // The competitors, on the same server in the same run.
        competitors(context, tasks, raw.get(100), figures, comparisons, notes);

        // The library.
        SqlStreams admin = ConsumeClients.one(context);
        List<SqlStreams> clients = ConsumeClients.create(context, SESSIONS.stream().max(Integer::compare).orElseThrow());
        progress.note(String.format(Locale.ROOT, "pre-filling a stream with %,d messages (produceBatch of %d from %d"
                + " threads)", messages, LibraryPrefill.BATCH, LibraryPrefill.THREADS));
        try (BenchStream stream = BenchStream.register(admin, context.dataSource(), context.schema(), "drain")) {
            LibraryPrefill.Filled filled = LibraryPrefill.fill(stream, messages);
            notes.add(String.format(Locale.ROOT, "Pre-fill: %,d messages by produceBatch(%d) from %d threads in %.1f s"
                            + " (%,.0f msg/s); every configuration drains the same log with a fresh consumer group"
                            + " (cursor at the beginning).", filled.ids().length, LibraryPrefill.BATCH,
                    LibraryPrefill.THREADS, filled.seconds(), filled.ids().length / filled.seconds()));
            progress.note(notes.get(notes.size() - 1));
            GroupDrain drain = GroupDrain.of(context, stream, filled);
            // the warm-up: the first configuration, cut short (a whole drain of N at batchLimit 100 takes minutes)
            int batchLimit0 = BATCH_LIMITS.get(0);
            int concurrency0 = CONCURRENCY.get(0);
            Duration warmup = Warmup.limit(context);
            notes.add(Warmup.run(context, label(SESSIONS.get(0), batchLimit0, concurrency0, messages)
                    .replace(" (msg/s)", "") + ", cut at " + warmup.toSeconds() + " s",
                    () -> drainOnce(context, clients.subList(0, SESSIONS.get(0)), drain, nextGroup(),
                            consume(batchLimit0, concurrency0), Optional.of(warmup), new ArrayList<>())));
            Figure best = null;
            for (int sessions : SESSIONS) {
                for (int batchLimit : BATCH_LIMITS) {
                    for (int concurrency : CONCURRENCY) {
                        List<String> details = new ArrayList<>();
                        Figure figure = repetitions.measure(label(sessions, batchLimit, concurrency, messages),
                                () -> drainOnce(context, clients.subList(0, sessions), drain, nextGroup(),
                                        consume(batchLimit, concurrency), Optional.empty(), details));
                        figures.add(figure);
                        comparisons.add(new Comparison(figure, raw.get(batchLimit),
                                "the raw reader with the same N per read"));
                        notes.add(figure.label().replace(" (msg/s)", "") + ": " + String.join("; ", details));
                        if (best == null || figure.throughput().median() > best.throughput().median()) {
                            best = figure;
                        }
                    }
                }
            }
            measureDefaults(context, clients.get(0), drain, messages, figures, comparisons, notes);
            summarise(best, figures, notes);
        }
        return new ScenarioResult(figures, comparisons, notes);
    }

    /**
     * One session at the default {@link ConsumeOptions}, as a user who never tunes them drains: held against the
     * same run's best-tuned single session (batchLimit 1000, queueSize 2000, messageConcurrency 8).
     */
    private void measureDefaults(BenchContext context, SqlStreams client, GroupDrain drain, long messages,
                                 List<Figure> figures, List<Comparison> comparisons, List<String> notes)
            throws Exception {
        String tunedLabel = label(1, 1000, 8, messages);
        Figure tuned = figures.stream().filter(figure -> figure.label().equals(tunedLabel)).findFirst().orElseThrow();
        List<String> details = new ArrayList<>();
        Figure defaults = context.repetitions().measure(String.format(Locale.ROOT, "drain %,d, 1 session, default"
                        + " ConsumeOptions (msg/s)", messages),
                () -> drainOnce(context, List.of(client), drain, nextGroup(), ConsumeOptions.defaults(),
                        Optional.empty(), details));
        figures.add(defaults);
        comparisons.add(new Comparison(defaults, tuned, "the same run's tuned single session"));
        notes.add(defaults.label().replace(" (msg/s)", "") + ": " + String.join("; ", details));
    }

    static ConsumeOptions consume(int batchLimit, int concurrency) {
        return ConsumeOptions.builder().batchLimit(batchLimit).queueSize(2 * batchLimit)
                .messageConcurrency(concurrency).build();
    }

    private String nextGroup() {
        return "drain-" + groups.incrementAndGet();
    }

    /** One drain of {@code drain} by a fresh group with the no-op recording handler: its msg/s and its ledger. */
    static Sample drainOnce(BenchContext context, List<SqlStreams> clients, GroupDrain drain, String group,
                            ConsumeOptions consume, Optional<Duration> limit, List<String> details) throws Exception {
        GroupDrain.Outcome outcome = drain.run(clients, group, ConsumerConfig.defaults(), consume,
                GroupDrain::recordingIds, false, limit, details);
        context.progress().note("  sessions: " + (outcome.counters().success() == drain.messages() ? ""
                : "success != N! ") + GroupSessions.describe(outcome.after()));
        return new Sample(Map.of(Metric.THROUGHPUT, outcome.throughput()), outcome.ledger());
    }

    private void competitors(BenchContext context, long tasks, Figure rawReader, List<Figure> figures,
                             List<Comparison> comparisons, List<String> notes) {
        Repetitions repetitions = context.repetitions();
        DbSchedulerDrain dbScheduler = new DbSchedulerDrain(context.dataSource());
        for (DbSchedulerDrain.Polling polling : DbSchedulerDrain.Polling.values()) {
            measureCompetitor(context, DbSchedulerDrain.label(polling, tasks),
                    () -> dbScheduler.drainOnce(polling, tasks), rawReader, figures, comparisons, notes)
                    .ifPresent(f -> notes.add(f.label() + ": polling strategy " + polling.description
                            + "; tasks scheduled in one scheduleBatch before start()."));
        }
        JobRunrDrain jobRunr = new JobRunrDrain(context.dataSource());
        measureCompetitor(context, JobRunrDrain.label(tasks), () -> jobRunr.drainOnce(tasks), rawReader, figures,
                comparisons, notes)
                .ifPresent(f -> notes.add(f.label() + ": jobs enqueued by JobScheduler.enqueue(Stream, lambda)"
                        + " before the background job server starts; its first poll is part of the drain."));
    }

    private Optional<Figure> measureCompetitor(BenchContext context, String label, Repetitions.Measurement measurement,
                                               Figure rawReader, List<Figure> figures, List<Comparison> comparisons,
                                               List<String> notes) {
        try {
            Figure figure = context.repetitions().measure(label, measurement);
            figures.add(figure);
            comparisons.add(new Comparison(figure, rawReader, "for scale: the raw reader, N=100"));
            return Optional.of(figure);
        } catch (Exception | LinkageError e) {
            String why = label + " could not be measured: " + e;
            notes.add("**NOT MEASURED** — " + why);
            context.progress().note(why);
            e.printStackTrace();
            return Optional.empty();
        }
    }

    private static void summarise(Figure best, List<Figure> figures, List<String> notes) {
        if (best == null) {
            return;
        }
        double ours = best.throughput().median();
        notes.add(String.format(Locale.ROOT, "Best library configuration: %s — %,.0f msg/s (median).",
                best.label(), ours));
        for (Figure figure : figures) {
            if (figure.label().startsWith("db-scheduler") || figure.label().startsWith("JobRunr")) {
                notes.add(String.format(Locale.ROOT, "Best library drain ÷ %s = %.1f×", figure.label(),
                        ours / figure.throughput().median()));
            }
        }
    }
}
