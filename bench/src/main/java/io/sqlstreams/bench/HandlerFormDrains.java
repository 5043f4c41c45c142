package io.sqlstreams.bench;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The measurement of {@code bench handler-forms}: the realistic shape's consumption (BENCHMARKS.md #9) by each
 * {@link HandlerForm} in the same run. The producer process pre-fills a keyed backlog once and stops; every
 * repetition of every form is a fresh pair of groups ({@link WorkGroups}) draining that log from its beginning with a
 * session in each consumer process, the forms rotated within each repetition so a drift of the machine weighs on all
 * of them alike. Per drain: each group's handled msg/s, both groups' together, and the database's commits per handled
 * message ({@code xact_commit} of {@code pg_stat_database}, read before the sessions start and after they stopped
 * and the server's statistics settled).
 */
final class HandlerFormDrains {
    /**
     * A backend flushes its statistics at most once a second while busy and within 10 s once idle
     * (PGSTAT_IDLE_INTERVAL), so a drain's last commits reach {@code pg_stat_database} only that long after it ended.
     */
    static final Duration SETTLE = Duration.ofSeconds(11);
    static final Duration SMOKE_SETTLE = Duration.ofSeconds(1);
    private static final String COMMITS = "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()";

    private final ScaleLab lab;
    private final int consumers;
    private final AtomicInteger drains = new AtomicInteger();

    /** One form's repetitions: each group's samples, the per-key counts, the costs and a line per drain. */
    static final class Measured {
        final List<List<Sample>> groups = RealisticShape.GROUPS.stream().map(g -> (List<Sample>) new ArrayList<Sample>())
                .toList();
        final RealisticShape.Tally tally = new RealisticShape.Tally();
        final List<ServerCost.Cost> costs = new ArrayList<>();
        final List<String> details = new ArrayList<>();
    }

    /**
     * What the part measured.
     *
     * @param both     per form, both groups together: handled msg/s and commits per handled message
     * @param measured per form, what its repetitions saw
     */
    record Result(Map<HandlerForm, Figure> both, Map<HandlerForm, Measured> measured, List<String> notes) {
    }

    HandlerFormDrains(ScaleLab lab, int consumers) {
        this.lab = lab;
        this.consumers = consumers;
    }

    static String label(HandlerForm form, int consumers) {
        return "forms: " + form.wireName() + " handlers, both groups, a session each in " + consumers
                + " processes (handled msg/s; commits per handled message)";
    }

    static String groupLabel(HandlerForm form, String group) {
        return "forms: " + form.wireName() + " handlers, group " + group + " (handled msg/s)";
    }

    Result run(long messages) throws Exception {
        BenchContext context = lab.context();
        List<String> notes = new ArrayList<>();
        Map<HandlerForm, Measured> measured = new EnumMap<>(HandlerForm.class);
        Map<HandlerForm, Figure> both = new EnumMap<>(HandlerForm.class);
        try (BenchStream stream = BenchStream.register(lab.admin(), context.dataSource(), context.schema(),
                "handler-forms")) {
            ProducedLog.Filled filled = ProducedLog.prefill(lab, stream, messages, true,
                    lab.ledger() + ".produced_forms");
            notes.add(filled.note());
            for (HandlerForm form : HandlerForm.values()) {
                notes.add(Warmup.run(context, "one drain with " + form.wireName() + " handlers",
                        () -> drainOnce(stream, filled.log(), form, new Measured())));
            }
            List<String> labels = new ArrayList<>();
            List<Repetitions.Measurement> measurements = new ArrayList<>();
            for (HandlerForm form : HandlerForm.values()) {
                measured.put(form, new Measured());
                labels.add(label(form, consumers));
                measurements.add(() -> drainOnce(stream, filled.log(), form, measured.get(form)));
            }
            List<Figure> figures = context.repetitions().measureRotating(labels, measurements);
            for (HandlerForm form : HandlerForm.values()) {
                both.put(form, figures.get(form.ordinal()));
                notes.add(form.wireName() + " handlers: " + String.join("; ", measured.get(form).details));
            }
        }
        return new Result(both, measured, notes);
    }

    private Sample drainOnce(BenchStream stream, ProducedLog log, HandlerForm form, Measured into) throws Exception {
        BenchContext context = lab.context();
        WorkGroups groups = WorkGroups.declare(lab, stream, "forms-" + drains.incrementAndGet());
        long messages = log.stored().length;
        long commitsBefore = commits();
        ServerCost meter = lab.meter(stream, consumers);
        try {
            groups.start(lab.consumers().subList(0, consumers), stream, form);
            groups.awaitHandled(messages, into.details);
            into.costs.add(meter.stop(messages * RealisticShape.GROUPS.size()));
        } catch (Exception | Error e) {
            meter.abandon();
            throw e;
        }
        List<ProcessSessions.Finished> finished = groups.finish();
        Thread.sleep((context.smoke() ? SMOKE_SETTLE : SETTLE).toMillis());
        long commits = commits() - commitsBefore;
        long startMicros = groups.startedMicros();
        long handled = WorkGroups.handled(finished);
        StringBuilder detail = new StringBuilder(String.format(Locale.ROOT, "rep %d: %,d commits for %,d handler"
                + " calls", GroupSessions.nextRepetition(into.details), commits, handled));
        List<Sample> samples = groups.judge(finished, startMicros, log, into.tally, detail);
        for (int g = 0; g < samples.size(); g++) {
            into.groups.get(g).add(samples.get(g));
        }
        into.details.add(detail.toString());
        context.progress().note("  " + detail);
        double seconds = (WorkGroups.lastMicros(finished) - startMicros) / 1e6;
        return new Sample(Map.of(Metric.THROUGHPUT, handled / seconds, Metric.COMMITS_PER_MESSAGE,
                commits / (double) Math.max(1, handled)), Ledger.IN_ANOTHER_FIGURE);
    }

    private long commits() throws SQLException {
        return LedgerQueries.scalar(lab.context().dataSource(), COMMITS);
    }
}
