package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.sqlstreams.ConsumeOptions;

/**
 * The second part of {@code bench scale} (BENCHMARKS.md #9), the realistic shape: two groups on one stream, each
 * with a session in every consumer process and a handler that inserts one row per message into a {@link WorkTable}
 * of its own, while the producer process's 16 threads call {@code produce()} in a closed loop for the measurement's
 * time, message {@code i} keyed as {@link ScaleKeys} says (2,000 keys, half ordered, half exclusive), each thread
 * writing its acknowledged ids to a table. Then the consumers drain what is left. Each repetition gives the
 * producer's msg/s and call p50/p99, and each group's handled msg/s from the producer's start to its last handler
 * call; the work tables tell the order violations and overlapping runs per key.
 */
final class RealisticShape {
    static final int PRODUCER_THREADS = 16;
    static final List<String> GROUPS = List.of("orders", "audit");
    /**
     * Ranges a tenth of the drains': a handler that writes works through a queue of 200 in seconds, well inside the
     * queue margin (15 s), where a queue of 2,000 outlasts it and its ranges wait for a reclaim (SQL0105).
     */
    static final ConsumeOptions CONSUME = ConsumeOptions.builder().batchLimit(100).queueSize(200)
            .messageConcurrency(8).build();

    private final ScaleLab lab;
    private final AtomicInteger runs = new AtomicInteger();
    private final Tally tally = new Tally();

    /** The work tables' counts over every measured repetition and group. */
    static final class Tally {
        long orderViolations;
        long violatedKeys;
        long overlaps;
        long overlappedKeys;
        long duplicates;
        long runs;
        long orderedRuns;

        void add(WorkTable.Counts counts) {
            orderViolations += counts.orderViolations();
            violatedKeys += counts.violatedKeys();
            overlaps += counts.overlaps();
            overlappedKeys += counts.overlappedKeys();
            duplicates += counts.duplicates();
            runs += counts.runs();
            orderedRuns += counts.orderedRuns();
        }
    }

    /** What the part measured. */
    record Result(List<Figure> figures, List<Comparison> comparisons, List<ServerCost.Cost> costs,
                  List<String> notes, Tally tally) {
    }

    RealisticShape(ScaleLab lab) {
        this.lab = lab;
    }

    static String producerLabel(int consumers) {
        return "realistic: produce() from " + PRODUCER_THREADS + " threads beside " + consumers
                + " consumer processes (msg/s; call ms)";
    }

    static String groupLabel(String group, int consumers) {
        return "realistic: group " + group + ", a session in each of " + consumers
                + " processes, one insert per message (handled msg/s)";
    }

    /** A repetition's samples: the producer's, then each group's. */
    private record Run(Sample producer, List<Sample> groups) {
    }

    Result run(int consumers, Duration producing) throws Exception {
        BenchContext context = lab.context();
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "Realistic shape: groups %s on one fresh stream per repetition, each"
                        + " with a session in each of %d consumer processes and a handler that inserts one row per"
                        + " message into a table of its own (a pool of 4 connections per process); the producer process"
                        + " calls produce() from %d threads in a closed loop for %.1f s, message i keyed k<i mod %,d>,"
                        + " even keys ordered, odd keys exclusive, each thread writing its acknowledged ids to a table"
                        + " every %d; then the consumers drain the rest. %% of baseline: handled msg/s of the produced"
                        + " msg/s.",
                String.join(" and ", GROUPS), consumers, PRODUCER_THREADS, producing.toMillis() / 1e3,
                ScaleKeys.KEYS, ScaleProducerMain.FLUSH));
        List<ServerCost.Cost> costs = new ArrayList<>();
        notes.add(Warmup.run(context, "one repetition of the realistic shape", () -> runOnce(consumers, producing,
                new ArrayList<>(), new ArrayList<>(), new Tally()).producer()));
        List<List<Sample>> groupSamples = GROUPS.stream().map(g -> (List<Sample>) new ArrayList<Sample>()).toList();
        List<String> details = new ArrayList<>();
        Figure producer = context.repetitions().measure(producerLabel(consumers), () -> {
            Run run = runOnce(consumers, producing, details, costs, tally);
            for (int g = 0; g < GROUPS.size(); g++) {
                groupSamples.get(g).add(run.groups().get(g));
            }
            return run.producer();
        });
        List<Figure> figures = new ArrayList<>(List.of(producer));
        List<Comparison> comparisons = new ArrayList<>();
        for (int g = 0; g < GROUPS.size(); g++) {
            Figure group = new Figure(groupLabel(GROUPS.get(g), consumers), groupSamples.get(g));
            figures.add(group);
            comparisons.add(new Comparison(group, producer, "produced msg/s of the same repetitions"));
        }
        notes.add("Realistic shape: " + String.join("; ", details));
        return new Result(figures, comparisons, costs, notes, tally);
    }

    private Run runOnce(int consumers, Duration producing, List<String> details, List<ServerCost.Cost> costs,
                        Tally into) throws Exception {
        BenchContext context = lab.context();
        int n = runs.incrementAndGet();
        try (BenchStream stream = BenchStream.register(lab.admin(), context.dataSource(), context.schema(),
                "scale-keys")) {
            IdTable produced = IdTable.create(context.dataSource(), lab.ledger() + ".produced_" + n);
            WorkGroups groups = WorkGroups.declare(lab, stream, Integer.toString(n));
            ServerCost meter = lab.meter(stream, consumers);
            String line;
            try {
                groups.start(lab.consumers().subList(0, consumers), stream, HandlerForm.PLAIN);
                lab.producer().command("produce " + stream.name() + " " + producing.toMillis() / 1e3 + " "
                        + PRODUCER_THREADS + " " + produced.name());
                line = lab.producer().awaitLine(ScaleProducerMain.PRODUCED + " " + produced.name(),
                        producing.plus(Workers.GRACE), ProcessSessions.failures(produced.name()));
                groups.awaitHandled(ProcessSessions.field(line, 2), details);
                costs.add(meter.stop(ProcessSessions.field(line, 2)));
            } catch (Exception | Error e) {
                meter.abandon();
                throw e;
            }
            return judge(stream, produced, line, groups, details, into);
        }
    }

    private Run judge(BenchStream stream, IdTable produced, String line, WorkGroups groups, List<String> details,
                      Tally into) throws Exception {
        BenchContext context = lab.context();
        String[] fields = line.split(" ");
        long startMicros = Long.parseLong(fields[4]);
        double seconds = (Long.parseLong(fields[5]) - startMicros) / 1e6;
        ProducedLog log = ProducedLog.read(context, stream, produced, Long.parseLong(fields[3]));
        Map<Metric, Double> produce = new EnumMap<>(Metric.class);
        produce.put(Metric.THROUGHPUT, log.acknowledged().length / seconds);
        produce.put(Metric.P50, Double.parseDouble(fields[6]));
        produce.put(Metric.P99, Double.parseDouble(fields[7]));
        Sample producer = new Sample(produce, Ledger.ofIds(log.acknowledged(), log.duplicates(), log.rows(),
                log.stored()));
        StringBuilder detail = new StringBuilder(String.format(Locale.ROOT, "rep %d: produced %,d in %.1f s",
                GroupSessions.nextRepetition(details), log.acknowledged().length, seconds));
        List<Sample> samples = groups.judge(groups.finish(), startMicros, log, into, detail);
        details.add(detail.toString());
        context.progress().note("  " + detail);
        return new Run(producer, samples);
    }

    /** The costs of the measured repetitions, by the producer's label. */
    static Map<String, List<ServerCost.Cost>> costs(int consumers, List<ServerCost.Cost> costs) {
        Map<String, List<ServerCost.Cost>> byLabel = new LinkedHashMap<>();
        byLabel.put("realistic shape on " + consumers + " consumer processes (per message produced, which both groups"
                + " handle)", costs);
        return byLabel;
    }
}
