package io.sqlstreams.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The realistic shape's groups in one repetition (BENCHMARKS.md #9): a fresh group of each of
 * {@link RealisticShape#GROUPS} on the stream, each with a {@link WorkTable} of its own, consumed by a session in each
 * of the given consumer processes; then each group's handled msg/s, its ledger by the work table's ids and the
 * table's per-key counts.
 */
final class WorkGroups {
    private final ScaleLab lab;
    private final List<String> groups;
    private final List<WorkTable> tables;
    private final List<ProcessSessions> sessions = new ArrayList<>();

    private WorkGroups(ScaleLab lab, List<String> groups, List<WorkTable> tables) {
        this.lab = lab;
        this.groups = groups;
        this.tables = tables;
    }

    /** Declares a group {@code <kind>-<suffix>} of each kind on {@code stream} and creates its work table. */
    static WorkGroups declare(ScaleLab lab, BenchStream stream, String suffix) throws Exception {
        List<String> groups = new ArrayList<>();
        List<WorkTable> tables = new ArrayList<>();
        for (String kind : RealisticShape.GROUPS) {
            groups.add(kind + "-" + suffix);
            GroupSessions.declare(lab.admin(), stream.name(), groups.get(groups.size() - 1));
            tables.add(WorkTable.create(lab.context().dataSource(), lab.ledger() + ".work_" + suffix.replace('-', '_')
                    + "_" + kind, ThreadLocalRandom.current().nextInt()));
        }
        return new WorkGroups(lab, groups, tables);
    }

    /** Starts a session of every group in each of {@code processes}, with handlers of {@code form}. */
    void start(List<ConsumerProcess> processes, BenchStream stream, HandlerForm form) throws InterruptedException {
        for (int g = 0; g < groups.size(); g++) {
            WorkTable table = tables.get(g);
            sessions.add(ProcessSessions.start(processes, stream.name(), groups.get(g), "insert " + table.name() + " "
                    + table.lockSpace() + " " + form.wireName()));
        }
    }

    /** When the first session of any group had started, in epoch microseconds. */
    long startedMicros() {
        return sessions.stream().mapToLong(ProcessSessions::startedMicros).min().orElseThrow();
    }

    /** Waits until every group has handled {@code messages}; a stall is noted in {@code details}. */
    void awaitHandled(long messages, List<String> details) throws InterruptedException {
        for (ProcessSessions group : sessions) {
            group.awaitHandled(messages, lab.stall(), Optional.empty(), details);
        }
    }

    /** Stops every group's sessions gracefully and waits for their final reports, in group order. */
    List<ProcessSessions.Finished> finish() throws InterruptedException {
        List<ProcessSessions.Finished> finished = new ArrayList<>();
        for (ProcessSessions group : sessions) {
            finished.add(group.finish(ScaleLab.FINISH_TIMEOUT));
        }
        return finished;
    }

    /**
     * Each finished group's sample: handled msg/s from {@code startMicros} to its last handler call, its per-key
     * counts (added to {@code into}) and its ledger against {@code log}; what each drained is appended to
     * {@code detail}.
     */
    List<Sample> judge(List<ProcessSessions.Finished> finished, long startMicros, ProducedLog log,
                       RealisticShape.Tally into, StringBuilder detail) throws Exception {
        BenchContext context = lab.context();
        List<Sample> samples = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            ProcessSessions.Finished group = finished.get(g);
            WorkTable.Counts counts = tables.get(g).judge(context.dataSource());
            into.add(counts);
            Map<Metric, Double> values = new EnumMap<>(Metric.class);
            values.put(Metric.THROUGHPUT, group.handled() / ((group.lastMicros() - startMicros) / 1e6));
            values.put(Metric.ORDER_VIOLATIONS, (double) counts.orderViolations());
            values.put(Metric.OVERLAPS, (double) counts.overlaps());
            values.put(Metric.DUPLICATES, (double) counts.duplicates());
            samples.add(new Sample(values, log.delivered(tables.get(g).sortedIds(context.dataSource()))
                    .withViolations(counts.orderViolations() + counts.overlaps())));
            detail.append(String.format(Locale.ROOT, "; %s drained %.1f s after the start (%s)",
                    RealisticShape.GROUPS.get(g), (group.lastMicros() - startMicros) / 1e6,
                    String.join(", ", group.counters())));
        }
        return samples;
    }

    /** The last handler call over every group, in epoch microseconds. */
    static long lastMicros(List<ProcessSessions.Finished> finished) {
        return finished.stream().mapToLong(ProcessSessions.Finished::lastMicros).max().orElseThrow();
    }

    /** Handler calls over every group. */
    static long handled(List<ProcessSessions.Finished> finished) {
        return finished.stream().mapToLong(ProcessSessions.Finished::handled).sum();
    }
}
