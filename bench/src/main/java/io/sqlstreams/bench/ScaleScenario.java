package io.sqlstreams.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;


/**
 * BENCHMARKS.md #9, scale with processes. Every consumer and the producer are JVMs of their own
 * ({@link ScaleConsumerMain}, {@link ScaleProducerMain}) consuming and producing through the public API; nothing but
 * PostgreSQL rows passes between them. Two parts: {@link ScaleDrains}, one group draining a pre-filled backlog with a
 * no-op handler on 1, 2 and 4 processes, each figure held against the 1-process figure of the same run; and
 * {@link RealisticShape}, two groups over 2,000 ordered and exclusive keys, 4 processes each running both, a handler
 * that inserts a row per message, and a producer of 16 threads. Every measurement is metered by {@link ServerCost}:
 * PostgreSQL CPU per message and lock waits sampled every 100 ms.
 */
final class ScaleScenario implements Scenario {
    static final List<Integer> PROCESSES = List.of(1, 2, 4);
    static final List<Integer> SMOKE_PROCESSES = List.of(1, 2);
    static final long DEFAULT_MESSAGES = 200_000;
    static final long SMOKE_MESSAGES = 4_000;
    static final int DEFAULT_CONSUMERS = 4;
    static final int SMOKE_CONSUMERS = 2;
    /** The realistic shape's producing time per repetition, unless {@code --seconds} says otherwise. */
    static final Duration DEFAULT_PRODUCING = Duration.ofSeconds(20);
    static final Duration SMOKE_PRODUCING = Duration.ofSeconds(1);
    /** The children's JVM: unlike the chaos lab's small ones, with the optimising compiler, as an application runs. */
    static final List<String> JVM = List.of("-Xmx512m", "-XX:+UseSerialGC", "-Xshare:auto");
    static final double TARGET_PERCENT = 90;

    @Override
    public String name() {
        return "scale";
    }

    @Override
    public String title() {
        return "Scale with processes: one group on 1, 2 and 4 consumer JVMs, and the realistic shape"
                + " (BENCHMARKS.md #9)";
    }

    @Override
    public boolean measuresBaselines() {
        return false;
    }

    @Override
    public String withoutBaselinesBecause() {
        return "each figure is held against one of the same run: the 1-process drain, the producer's msg/s";
    }

    /** The run's sizes, from the command line or the defaults. */
    private record Settings(List<Integer> processes, long messages, int consumers, Duration producing) {
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        Settings settings = settings(context);
        int fleet = Math.max(settings.consumers(), settings.processes().stream().max(Integer::compare).orElseThrow());
        String loadBefore = loadAverage();
        return ScaleLab.run(context, fleet, lab -> {
            ScaleDrains.Result drains = new ScaleDrains(lab).run(settings.processes(), settings.messages());
            RealisticShape.Result shape = new RealisticShape(lab).run(settings.consumers(), settings.producing());
            return result(settings, drains, shape, loadBefore);
        });
    }

    private static Settings settings(BenchContext context) {
        BenchOptions options = context.options();
        boolean smoke = context.smoke();
        List<Integer> processes = options.processes().isEmpty() ? smoke ? SMOKE_PROCESSES : PROCESSES
                : options.processes();
        return new Settings(processes, options.messages().orElse(smoke ? SMOKE_MESSAGES : DEFAULT_MESSAGES),
                options.chaos().consumers().orElse(smoke ? SMOKE_CONSUMERS : DEFAULT_CONSUMERS),
                options.phases().seconds().orElse(smoke ? SMOKE_PRODUCING : DEFAULT_PRODUCING));
    }

    private static ScenarioResult result(Settings settings, ScaleDrains.Result drains, RealisticShape.Result shape,
                                         String loadBefore) {
        List<Figure> figures = new ArrayList<>(drains.figures());
        figures.addAll(shape.figures());
        List<Comparison> comparisons = new ArrayList<>(drains.comparisons());
        comparisons.addAll(shape.comparisons());
        Map<String, List<ServerCost.Cost>> costs = new LinkedHashMap<>(drains.costs());
        costs.putAll(RealisticShape.costs(settings.consumers(), shape.costs()));
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "This machine has %d cores, shared by PostgreSQL, the harness, the"
                        + " producer process and up to %d consumer processes, and with whatever else runs on it (load"
                        + " average %s before the scenario, %s after): processes beyond the cores compete for them, so"
                        + " read the ratios with that in mind.", Runtime.getRuntime().availableProcessors(),
                Math.max(settings.consumers(), settings.processes().stream().max(Integer::compare).orElseThrow()),
                loadBefore, loadAverage()));
        notes.add(String.format(Locale.ROOT, "Every consumer and the producer is a JVM of its own (%s, the harness's"
                        + " class path), started once for the whole run and used through the public API"
                        + " (SqlStreams.create, one client each); the drains' sessions batchLimit %d, queueSize %d,"
                        + " messageConcurrency %d, the realistic shape's batchLimit %d, queueSize %d,"
                        + " messageConcurrency %d. Nothing but PostgreSQL rows passes between the consumer"
                        + " processes: the engine's, and the ledger's tables.", String.join(" ", JVM),
                SustainedScenario.CONSUME.batchLimit(), SustainedScenario.CONSUME.queueSize(),
                SustainedScenario.CONSUME.resolvedMessageConcurrency(), RealisticShape.CONSUME.batchLimit(),
                RealisticShape.CONSUME.queueSize(), RealisticShape.CONSUME.resolvedMessageConcurrency()));
        notes.add("Why a pre-filled backlog rather than a paced producer for the drains: the figure is how fast k"
                + " processes consume, and a producer running beside them on two cores would take its CPU out of"
                + " theirs, differently at each k; with the backlog pre-filled once by the producer process, every"
                + " drain is the same work on the same log, the consumers are never starved or throttled by an offered"
                + " rate, and the ledger is exact by ids.");
        ratios(drains, notes);
        notes.addAll(drains.notes());
        notes.addAll(shape.notes());
        RealisticShape.Tally tally = shape.tally();
        notes.add(String.format(Locale.ROOT, "Realistic shape, per key over every measured repetition and both"
                        + " groups: %,d handler runs (%,d under the ordered policy, the rest exclusive); %,d ordered"
                        + " keys of %,d with an order violation, %,d keys of %,d with an overlapping run; %,d runs of a"
                        + " message after its first.", tally.runs, tally.orderedRuns, tally.violatedKeys,
                ScaleKeys.KEYS / 2, tally.overlappedKeys, ScaleKeys.KEYS, tally.duplicates));
        costs.forEach((label, each) -> whereTimeGoes(label, each, notes));
        if (costs.values().stream().flatMap(List::stream).anyMatch(c -> c.postgresMicros().isEmpty())) {
            notes.add("PostgreSQL CPU could not be read: the server is not on this machine, or /proc shows no"
                    + " postgres process.");
        } else {
            notes.add("PostgreSQL CPU: utime + stime of every process named postgres on this machine (/proc), before"
                    + " and after each measurement, over its messages; backends and background workers that exit in"
                    + " between take their share with them, and any other client of a shared server adds its own."
                    + " Client JVMs: the consumer (and, realistic shape, producer) processes of the measurement.");
        }
        List<Invariant> invariants = List.of(
                Invariant.zero("ordered violations", tally.orderViolations, "ordered messages whose first run"
                        + " inserted after the first run of a later message (higher id) of the same key, in either"
                        + " group"),
                Invariant.zero("exclusive overlaps", tally.overlaps, "runs of an exclusive or ordered key that found"
                        + " another run of the key of the same group inside its insert, in any process (its"
                        + " advisory lock on the key was held)"),
                Invariant.counted("duplicates", tally.duplicates, "runs of a message after its first in the"
                        + " realistic shape"));
        return new ScenarioResult(figures, comparisons, notes, invariants, List.of(ServerCost.table(costs)));
    }

    /** Each process count's median as a percentage of the 1-process median, against the target. */
    private static void ratios(ScaleDrains.Result drains, List<String> notes) {
        for (Comparison comparison : drains.comparisons()) {
            double percent = comparison.percentages().median();
            notes.add(String.format(Locale.ROOT, "%s: %.1f%% of the 1-process figure (target for 4 processes:"
                    + " ≥ %.0f%%)", comparison.subject().label().replace(" (msg/s)", ""), percent, TARGET_PERCENT));
        }
    }

    /** Where a measurement's time went, as far as its samples show. */
    private static void whereTimeGoes(String label, List<ServerCost.Cost> costs, List<String> notes) {
        ServerActivity.Summary activity = ServerActivity.Summary.merged(costs.stream().map(ServerCost.Cost::activity)
                .toList());
        List<String> statements = activity.topLockStatements(3);
        notes.add(String.format(Locale.ROOT, "%s: over %,d samples the clients' active backends were %s; lock waits"
                        + " in %,d samples (%,d waiting backends in all, at most %d at once)%s", label,
                activity.samples(), activity.topEvents(6), activity.lockSamples(), activity.lockWaits(),
                activity.peakLockWaits(), statements.isEmpty() ? "." : ", mostly: " + String.join("; ", statements)
                        + "."));
    }

    /** {@code /proc/loadavg}'s first three fields, or "unknown". */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
