package io.sqlstreams.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.LongStream;

import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;

/**
 * BENCHMARKS.md #10, the reliability lab: N consumer processes ({@link ChaosConsumerMain}) consume one group while
 * this JVM produces a known mix of unkeyed, exclusive and ordered messages (a few failing once, a few always) at a
 * steady rate; meanwhile a {@link FaultInjector} SIGKILLs consumers, terminates their backends and restarts
 * PostgreSQL on a seeded schedule. After the window the consumers drain, stop gracefully, and the
 * {@link ChaosVerdict} checks the ledger: nothing lost, nothing unexpected, no ordered violation, no overlap of an
 * exclusive or ordered key; duplicates are counted. Unless {@code --fence-holders off}, {@link FenceHolders} run
 * throughout: held producer transactions (their messages count as produced exactly when they commit) and
 * transactions that hold an xid and nothing of the stream; none of the lab's prepared transactions may be left. With {@code --handler transactional} the consumers' handler writes
 * one effect row per message inside the library's transaction, and the verdict adds: exactly one per message.
 */
final class ChaosScenario implements Scenario {
    static final int DEFAULT_CONSUMERS = 4;
    static final int SMOKE_CONSUMERS = 2;
    static final long DEFAULT_MESSAGES = 24_000;
    static final long SMOKE_MESSAGES = 2_000;
    static final int DEFAULT_RATE = 100;
    static final int SMOKE_RATE = 100;
    static final Duration SECONDS_PER_KILL = Duration.ofSeconds(10);
    static final Duration SECONDS_PER_STORM = Duration.ofSeconds(60);
    static final Duration SECONDS_PER_RESTART = Duration.ofSeconds(90);
    /** Longer than a killed process's leases (about 13 s) plus the exception path's backoffs. */
    static final Duration DEFAULT_STALL = Duration.ofSeconds(90);
    static final Duration SMOKE_STALL = Duration.ofSeconds(45);
    static final Duration LONGEST_UNRELATED_HOLD = Duration.ofSeconds(60);
    static final Duration SMOKE_LONGEST_UNRELATED_HOLD = Duration.ofSeconds(10);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    static String label(int consumers, long messages, int rate, HandlerMode handler) {
        return String.format(Locale.ROOT, "chaos: %d consumer processes, %,d messages at %,d msg/s%s", consumers,
                messages, rate, handler == HandlerMode.PLAIN ? "" : ", " + handler.flagValue() + " handler");
    }

    @Override
    public String name() {
        return "chaos";
    }

    @Override
    public String title() {
        return "Reliability lab: killed consumers, backend storms, PostgreSQL restarts (BENCHMARKS.md #10)";
    }

    @Override
    public boolean measuresBaselines() {
        return false;
    }

    /** The run's sizes, from the command line or the defaults. */
    private record Settings(int consumers, long messages, int rate, long seed, int kills, int storms, int restarts,
                            Duration stall, HandlerMode handler, boolean fenceHolders,
                            Duration longestUnrelatedHold) {

        Duration window() {
            return Duration.ofMillis(messages * 1000 / rate);
        }
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        Settings settings = settings(context);
        Progress progress = context.progress();
        progress.note(String.format(Locale.ROOT, "chaos seed %d (repeat with --seed %d); %d consumers (%s handler),"
                        + " %,d messages at %d msg/s: a %.0f s fault window with %d kills, %d storms, %d restarts",
                settings.seed, settings.seed, settings.consumers, settings.handler.flagValue(), settings.messages,
                settings.rate, settings.window().toMillis() / 1e3, settings.kills, settings.storms, settings.restarts));
        ChaosPlan plan = new ChaosPlan(settings.seed);
        List<ChaosPlan.Fault> faults = plan.faults(settings.window(), settings.consumers, settings.kills,
                settings.storms, settings.restarts);
        Path logs = Files.createTempDirectory("bench-chaos-");
        try (ThrowawaySchema ledgerSchema = ThrowawaySchema.create(context.dataSource())) {
            RunLedger ledger = new RunLedger(context.dataSource(), ledgerSchema.name());
            ledger.create();
            SqlStreams admin = ConsumeClients.one(context);
            try (BenchStream stream = BenchStream.register(admin, context.dataSource(), context.schema(), "chaos")) {
                return runLab(context, settings, plan, faults, ledger, admin, stream, logs);
            }
        }
    }

    private ScenarioResult runLab(BenchContext context, Settings settings, ChaosPlan plan,
                                  List<ChaosPlan.Fault> faults, RunLedger ledger, SqlStreams admin,
                                  BenchStream stream, Path logs) throws Exception {
        Progress progress = context.progress();
        BenchServer server = context.server();
        GroupSessions.declare(admin, stream.name(), ChaosGroup.GROUP, ChaosGroup.declaration());
        long groupId = admin.stream(stream.name(), BenchPayload.class).consumer(ChaosGroup.GROUP).get().orElseThrow()
                .id();
        ChaosVerdict verdict = new ChaosVerdict(context.dataSource(), ledger.schema(),
                context.schema() + ".exception_queue_" + stream.id(), groupId, settings.handler);
        Function<String, List<String>> arguments = process -> List.of(server.jdbcUrl(), context.schema(),
                ledger.schema(), stream.name(), process, Long.toString(settings.seed), settings.handler.flagValue());
        List<String> notes = new ArrayList<>();
        progress.note("starting " + settings.consumers + " consumer processes (logs in " + logs + ")");
        ChaosProducer chaosProducer = new ChaosProducer();
        ExecutorService background = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "chaos-background");
            thread.setDaemon(true);
            return thread;
        });
        try (ConsumerFleet fleet = ConsumerFleet.start(settings.consumers, arguments, logs, progress);
             Producer<BenchPayload> producer = stream.handle().producer().register();
             FenceHolders holders = FenceHolders.start(settings.fenceHolders, server, ledger.schema(), producer, plan,
                     settings.messages, stream.name(), settings.longestUnrelatedHold)) {
            progress.note("consumers ready; producing and injecting faults");
            long windowStart = System.nanoTime();
            Future<ChaosProducer.Outcome> producing = background.submit(() -> chaosProducer.run(producer, plan,
                    settings.messages, settings.rate, stream.name()));
            ScheduledExecutorService ticker = ticker(progress, () -> String.format(Locale.ROOT,
                    "  producing: %,d of %,d acknowledged, %,d produce retries, %s", chaosProducer.acknowledgedSoFar(),
                    settings.messages, chaosProducer.retriesSoFar(), runsSoFar(context, ledger)));
            FaultInjector.Log faultLog;
            ChaosProducer.Outcome sent;
            try {
                faultLog = new FaultInjector(server, fleet, ledger, progress).run(faults, windowStart);
                sent = producing.get();
            } finally {
                ticker.shutdownNow();
            }
            HeldProducers.Outcome held = holders.stopProducing(stream.logTable());
            long[] acknowledged = LongStream.concat(LongStream.of(sent.acknowledged()), LongStream.of(held.produced()))
                    .sorted().toArray();
            long stored = verdict.recordMessages(stream.logTable(), plan);
            progress.note(String.format(Locale.ROOT, "produced %,d in %.1f s (%,d retries, %,d through held"
                    + " transactions); draining", stored, sent.seconds(), sent.retries(), held.produced().length));
            Drain drain = drain(verdict, fleet, stored, settings.stall, progress);
            UnrelatedHolders.Outcome holding = holders.stopUnrelated();
            List<String> preparedLeft = holders.preparedLeft();
            progress.note("stopping the consumers gracefully");
            List<String> stops = fleet.stopAll(STOP_TIMEOUT);
            ChaosVerdict.Counts counts = verdict.judge(acknowledged);
            Optional<EffectCounts> effects = settings.handler == HandlerMode.TRANSACTIONAL
                    ? Optional.of(verdict.effects(fleet.reports(ChaosHandler.UNIQUE_VIOLATION))) : Optional.empty();
            List<String> evidence = new ArrayList<>(counts.evidence());
            effects.ifPresent(found -> evidence.addAll(found.evidence()));
            ConsumerInspection after = admin.stream(stream.name(), BenchPayload.class).consumer(ChaosGroup.GROUP)
                    .inspect();
            describe(notes, settings, faultLog, sent, drain, fleet, stops, counts, after, verdict, server);
            effects.ifPresent(found -> notes.add(effectsNote(found)));
            List<String> fence = new ArrayList<>(holders.describe(held, holding));
            fence.add(preparedLeft.isEmpty() ? "None of the lab's prepared transactions was left in pg_prepared_xacts"
                    + " after the holders stopped." : "**Prepared transactions left**: " + preparedLeft);
            notes.addAll(fence);
            fence.forEach(line -> progress.note("  " + line));
            evidence.forEach(line -> notes.add("**EVIDENCE** " + line));
            evidence.forEach(line -> progress.note("  EVIDENCE " + line));
            if (!evidence.isEmpty() || drain.stalled() || !fleet.unexpectedExits().isEmpty()) {
                notes.add("Consumer logs kept in " + logs);
            } else {
                DirectoryTree.delete(logs);
            }
            return result(settings, acknowledged.length, new FenceCounts(held, holding, preparedLeft.size()), faultLog,
                    counts, effects, notes);
        } finally {
            background.shutdownNow();
        }
    }

    private static Settings settings(BenchContext context) {
        ChaosOptions chaos = context.options().chaos();
        boolean smoke = context.smoke();
        int consumers = chaos.consumers().orElse(smoke ? SMOKE_CONSUMERS : DEFAULT_CONSUMERS);
        long messages = context.options().messages().orElse(smoke ? SMOKE_MESSAGES : DEFAULT_MESSAGES);
        int rate = chaos.rate().orElse(smoke ? SMOKE_RATE : DEFAULT_RATE);
        long windowSeconds = messages / rate;
        // a server without a restart (given, no --pg-restart-command) is never restarted; parsing refused asking it
        int restarts = context.server().restart().isPresent()
                ? chaos.restarts().orElse(perWindow(windowSeconds, SECONDS_PER_RESTART)) : 0;
        return new Settings(consumers, messages, rate,
                chaos.seed().orElseGet(() -> ThreadLocalRandom.current().nextLong()),
                chaos.kills().orElse(Math.max(2, perWindow(windowSeconds, SECONDS_PER_KILL))),
                chaos.storms().orElse(perWindow(windowSeconds, SECONDS_PER_STORM)), restarts,
                smoke ? SMOKE_STALL : DEFAULT_STALL, chaos.handler(), chaos.fenceHolders(),
                smoke ? SMOKE_LONGEST_UNRELATED_HOLD : LONGEST_UNRELATED_HOLD);
    }

    /** One fault per {@code every} of the window, at least one. */
    private static int perWindow(long windowSeconds, Duration every) {
        return (int) Math.max(1, windowSeconds / every.toSeconds());
    }

    /** How the drain ended. */
    private record Drain(long settled, double seconds, boolean stalled) {
    }

    /** Waits until every stored message has its configured outcome, or until nothing moved for {@code stall}. */
    private static Drain drain(ChaosVerdict verdict, ConsumerFleet fleet, long stored, Duration stall,
                               Progress progress) throws Exception {
        long start = System.nanoTime();
        long lastChange = start;
        long lastNote = start;
        long last = -1;
        while (true) {
            long settled = verdict.settled();
            long now = System.nanoTime();
            if (settled >= stored) {
                return new Drain(settled, (now - start) / 1e9, false);
            }
            if (settled != last) {
                last = settled;
                lastChange = now;
            } else if (now - lastChange > stall.toNanos()) {
                progress.note(String.format(Locale.ROOT, "  STALLED: %,d of %,d settled, no progress for %d s",
                        settled, stored, stall.toSeconds()));
                return new Drain(settled, (now - start) / 1e9, true);
            }
            if (now - lastNote > PROGRESS_EVERY.toNanos()) {
                lastNote = now;
                progress.note(String.format(Locale.ROOT, "  draining: %,d of %,d settled", settled, stored));
            }
            fleet.replaceExited();
            Thread.sleep(500);
        }
    }

    /** What the fence holders did, for the figures and the invariants. */
    private record FenceCounts(HeldProducers.Outcome held, UnrelatedHolders.Outcome holding, int preparedLeft) {
    }

    private static ScenarioResult result(Settings settings, long acknowledged, FenceCounts fence,
                                         FaultInjector.Log faults,
                                         ChaosVerdict.Counts counts, Optional<EffectCounts> effects,
                                         List<String> notes) {
        Map<Metric, Double> values = new EnumMap<>(Metric.class);
        values.put(Metric.PRODUCED, (double) counts.produced());
        values.put(Metric.HANDLED, (double) counts.settled());
        values.put(Metric.RUNS, (double) counts.runs());
        values.put(Metric.KILLS, (double) faults.kills());
        values.put(Metric.BACKENDS_TERMINATED, (double) faults.backendsTerminated());
        values.put(Metric.RESTARTS, (double) faults.restarts());
        values.put(Metric.DUPLICATES, (double) counts.duplicates());
        values.put(Metric.ORDER_VIOLATIONS, (double) counts.orderViolations());
        values.put(Metric.OVERLAPS, (double) counts.overlaps());
        values.put(Metric.HELD_TRANSACTIONS, (double) fence.held().results().size());
        values.put(Metric.HELD_PRODUCED, (double) fence.held().produced().length);
        values.put(Metric.UNRELATED_HOLDS, (double) fence.holding().holds());
        effects.ifPresent(found -> values.put(Metric.EFFECT_ROWS, (double) found.rows()));
        Ledger ledger = new Ledger(acknowledged, counts.stored(), counts.produced(),
                counts.notStored(), counts.unexpected(), counts.duplicates(), counts.settled(), counts.unsettled(),
                counts.orderViolations() + counts.overlaps());
        Figure figure = new Figure(label(settings.consumers, settings.messages, settings.rate, settings.handler),
                List.of(new Sample(values, ledger)));
        List<Invariant> invariants = new ArrayList<>(List.of(
                Invariant.zero("lost", counts.lost(), "produced messages without their configured outcome: a"
                        + " successful run for each, dead-lettered for a poison one (or acknowledged but not stored)"),
                Invariant.zero("unexpected", counts.unexpected(), "stored messages never acknowledged or stored"
                        + " twice, and runs of a message that was not produced"),
                Invariant.zero("ordered violations", counts.orderViolations(), "ordered messages whose first success"
                        + " started after the first success of a later message of the same key"),
                Invariant.zero("exclusive overlaps", counts.overlaps(), "runs of an exclusive or ordered key that"
                        + " began while another run of the key was going, in any process"),
                Invariant.zero("prepared transactions left", fence.preparedLeft(), "the lab's two-phase transactions"
                        + " still in pg_prepared_xacts after every holder stopped: each must be committed or rolled"
                        + " back, through restarts and lost connections"),
                Invariant.counted("duplicates", counts.duplicates(), "runs of a message after its first successful"
                        + " run began: at-least-once delivery after kills, storms and restarts")));
        effects.ifPresent(found -> invariants.addAll(found.invariants()));
        return new ScenarioResult(List.of(figure), List.of(), notes, invariants);
    }

    private static void describe(List<String> notes, Settings settings, FaultInjector.Log faults,
                                 ChaosProducer.Outcome sent, Drain drain, ConsumerFleet fleet, List<String> stops,
                                 ChaosVerdict.Counts counts, ConsumerInspection after, ChaosVerdict verdict,
                                 BenchServer server) throws SQLException {
        notes.add(String.format(Locale.ROOT, "Seed %d (repeat with `--seed %d`). %d consumer processes (separate"
                        + " JVMs, one session each: %s, queueSize 40, messageConcurrency 4), one group;"
                        + " %,d messages produced at %d msg/s from %d threads, each with an idempotency key and"
                        + " retried until acknowledged; a %.0f s fault window.", settings.seed, settings.seed,
                settings.consumers, settings.handler == HandlerMode.TRANSACTIONAL
                        ? "batchLimit " + ChaosGroup.TRANSACTIONAL_BATCH_LIMIT
                        : "batchLimit at its default (ranges from 4, growing while a backlog lasts)",
                settings.messages, settings.rate, ChaosProducer.CALLERS,
                settings.window().toMillis() / 1e3));
        notes.add(String.format(Locale.ROOT, "Message mix: 40%% unkeyed, 30%% exclusive over %d keys, 30%% ordered over"
                        + " %d keys; %d‰ fail their first run, %d‰ are poison (always fail: dead after %d runs)."
                        + " Handler timeout %d s; each handler works 1–8 ms and writes its start and finish to the"
                        + " ledger in short transactions of its own.", ChaosPlan.EXCLUSIVE_KEYS,
                ChaosPlan.ORDERED_KEYS, ChaosPlan.FAIL_ONCE_PER_MILLE, ChaosPlan.POISON_PER_MILLE,
                ChaosGroup.MAX_RETRIES, ChaosGroup.HANDLER_TIMEOUT.toSeconds()));
        notes.add(String.format(Locale.ROOT, "Faults: %d kills (SIGKILL, replaced at once), %d storms"
                        + " (pg_terminate_backend of every consumer backend, %d rounds), %d restarts (%s)%s.",
                faults.kills(), faults.storms(), FaultInjector.STORM_ROUNDS, faults.restarts(),
                server.restart().map(BenchServer.Restart::describe).orElse("none: a given server is restarted only"
                        + " with --pg-restart-command"),
                faults.restartMillis().isEmpty() ? "" : "; back after " + faults.restartMillis() + " ms"));
        notes.add("Fault timeline (from the start of the window): " + String.join("; ", faults.timeline()));
        List<String> resumptions = verdict.resumptions();
        if (!resumptions.isEmpty()) {
            notes.add("Consuming resumed: " + String.join("; ", resumptions));
        }
        notes.add(String.format(Locale.ROOT, "Producer: %,d acknowledged in %.1f s, %,d failed produce calls retried,"
                + " %,d retries answered duplicate (their first try had committed).", sent.acknowledged().length,
                sent.seconds(), sent.retries(), sent.duplicates()));
        notes.add(String.format(Locale.ROOT, "Drain: %,d of %,d settled %.1f s after the last produce%s. Group"
                        + " afterwards: %s.", drain.settled(), counts.produced(), drain.seconds(),
                drain.stalled() ? " — **STALLED**" : "", GroupSessions.describe(after)));
        notes.add(String.format(Locale.ROOT, "Runs: %,d, of which %,d unfinished in a process that was never killed"
                        + " (their finish could not be recorded); besides, %,d runs failed at once because their start"
                        + " could not be recorded (not in the ledger); %,d messages dead-lettered although planned to"
                        + " succeed.", counts.runs(), counts.unfinishedLive(), fleet.reports(ChaosHandler.UNRECORDED),
                counts.deadUnplanned()));
        notes.add(fleet.started() + " consumer processes started in all: " + String.join("; ",
                verdict.runsByProcess()));
        List<String> failures = fleet.sessionFailures();
        notes.add(failures.size() + " sessions stopped on their own and were started again by their process"
                + (failures.isEmpty() ? "" : ": " + String.join("; ", failures.stream().limit(10).toList())
                + (failures.size() > 10 ? "; …" : "")));
        if (!fleet.unexpectedExits().isEmpty()) {
            notes.add("Processes that exited on their own: " + String.join("; ", fleet.unexpectedExits()));
        }
        notes.add("Graceful stops: " + String.join("; ", stops));
    }

    private static String effectsNote(EffectCounts effects) {
        return String.format(Locale.ROOT, "Effects: the handler is a TransactionalHandler; each run inserts (group,"
                        + " message id) into chaos_effects (primary key on both) through the lent connection before its"
                        + " planned failure, if any. %,d rows; %,d messages missing their row, %,d rows extra, %,d"
                        + " unique violations reported by the consumers.", effects.rows(), effects.missing(),
                effects.extra(), effects.violations());
    }

    /** A line from {@code status} every few seconds until shut down. */
    private static ScheduledExecutorService ticker(Progress progress, Supplier<String> status) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chaos-progress");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleAtFixedRate(() -> progress.note(status.get()), PROGRESS_EVERY.toMillis(),
                PROGRESS_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        return scheduler;
    }

    private static String runsSoFar(BenchContext context, RunLedger ledger) {
        try {
            return String.format(Locale.ROOT, "%,d handler runs recorded", LedgerQueries.scalar(context.dataSource(),
                    "SELECT count(*) FROM " + ledger.schema() + ".chaos_run"));
        } catch (SQLException e) {
            return "ledger unreadable just now (" + e.getSQLState() + ")";
        }
    }
}
