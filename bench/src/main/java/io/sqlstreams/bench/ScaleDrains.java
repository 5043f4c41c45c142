package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The first part of {@code bench scale} (BENCHMARKS.md #9): one group draining a backlog with a no-op handler on 1,
 * 2, 4… consumer processes. The producer process pre-fills the stream once; every drain is a fresh group (cursor at
 * the beginning) whose sessions run in the first k consumer processes, each of which keeps the ids it handled and
 * writes them to a table of the drain's once its session has stopped, so the ledger is checked by ids across
 * processes. msg/s run from the first session's start to the last handler call; CPU and lock waits are metered from
 * the commands to the last handler call.
 */
final class ScaleDrains {
    private final ScaleLab lab;
    private final AtomicInteger drains = new AtomicInteger();
    private final Map<String, List<ServerCost.Cost>> costs = new LinkedHashMap<>();

    /** What the part measured. */
    record Result(List<Figure> figures, List<Comparison> comparisons, Map<String, List<ServerCost.Cost>> costs,
                  List<String> notes) {
    }

    ScaleDrains(ScaleLab lab) {
        this.lab = lab;
    }

    static String label(int processes, long messages) {
        return String.format(Locale.ROOT, "scale: one group on %d consumer process%s, draining %,d (msg/s)",
                processes, processes == 1 ? "" : "es", messages);
    }

    Result run(List<Integer> processCounts, long messages) throws Exception {
        BenchContext context = lab.context();
        List<Figure> figures = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        try (BenchStream stream = BenchStream.register(lab.admin(), context.dataSource(), context.schema(),
                "scale")) {
            ProducedLog.Filled filled = ProducedLog.prefill(lab, stream, messages, false,
                    lab.ledger() + ".produced_backlog");
            notes.add(filled.note());
            ProducedLog backlog = filled.log();
            int most = processCounts.stream().max(Integer::compare).orElseThrow();
            Duration limit = Warmup.limit(context);
            notes.add(Warmup.run(context, label(most, messages).replace(" (msg/s)", "") + ", cut at "
                    + limit.toSeconds() + " s", () -> drainOnce(stream, backlog, most, Optional.of(limit),
                    new ArrayList<>(), new ArrayList<>())));
            Figure one = null;
            for (int processes : processCounts) {
                String label = label(processes, messages);
                List<String> details = new ArrayList<>();
                List<ServerCost.Cost> each = new ArrayList<>();
                Figure figure = context.repetitions().measure(label, () -> drainOnce(stream, backlog, processes,
                        Optional.empty(), details, each));
                figures.add(figure);
                costs.put(label.replace(" (msg/s)", ""), each);
                notes.add(label.replace(" (msg/s)", "") + ": " + String.join("; ", details));
                if (processes == 1) {
                    one = figure;
                } else if (one != null) {
                    comparisons.add(new Comparison(figure, one, "the same drain by 1 process, same run"));
                }
            }
        }
        return new Result(figures, comparisons, costs, notes);
    }

    private Sample drainOnce(BenchStream stream, ProducedLog backlog, int processes, Optional<Duration> limit,
                             List<String> details, List<ServerCost.Cost> costs) throws Exception {
        BenchContext context = lab.context();
        int n = drains.incrementAndGet();
        String group = "scale-" + n;
        GroupSessions.declare(lab.admin(), stream.name(), group);
        IdTable handled = IdTable.create(context.dataSource(), lab.ledger() + ".handled_" + n);
        List<ConsumerProcess> consumers = lab.consumers().subList(0, processes);
        long messages = backlog.stored().length;
        ServerCost meter = lab.meter(stream, processes);
        ServerCost.Cost cost;
        ProcessSessions sessions;
        try {
            sessions = ProcessSessions.start(consumers, stream.name(), group, "noop " + handled.name());
            sessions.awaitHandled(messages, lab.stall(), limit, details);
            cost = meter.stop(sessions.handled());
        } catch (Exception | Error e) {
            meter.abandon();
            throw e;
        }
        ProcessSessions.Finished finished = sessions.finish(ScaleLab.FINISH_TIMEOUT);
        double seconds = (finished.lastMicros() - sessions.startedMicros()) / 1e6;
        long[] handledIds = handled.sortedIds(context.dataSource());
        Ledger ledger = backlog.delivered(handledIds);
        costs.add(cost);
        details.add("rep " + GroupSessions.nextRepetition(details) + ": " + String.join(", ", finished.counters()));
        context.progress().note(String.format(Locale.ROOT, "  %d processes: %,d handled in %.1f s; PostgreSQL %s"
                        + " µs/msg; lock waits in %d of %d samples", processes, finished.handled(), seconds,
                cost.postgresMicros().isPresent() ? String.format(Locale.ROOT, "%.1f",
                        cost.postgresMicros().getAsDouble()) : "(not readable)", cost.activity().lockSamples(),
                cost.activity().samples()));
        return new Sample(Map.of(Metric.THROUGHPUT, finished.handled() / seconds), ledger);
    }
}
