package io.sqlstreams.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench handler-forms}: BENCHMARKS.md #9's realistic shape consumed by plain, transactional and batch handlers
 * in one run ({@link HandlerFormDrains}), the transactional and batch figures held against the plain ones of the same
 * run. The consumer and producer processes are {@code bench scale}'s ({@link ScaleLab}).
 */
final class HandlerFormsScenario implements Scenario {
    static final long DEFAULT_MESSAGES = 10_000;
    static final long SMOKE_MESSAGES = 400;

    @Override
    public String name() {
        return "handler-forms";
    }

    @Override
    public String title() {
        return "Handler forms: the realistic shape's consumption by plain, transactional and batch handlers"
                + " (BENCHMARKS.md #9)";
    }

    @Override
    public boolean measuresBaselines() {
        return false;
    }

    @Override
    public String withoutBaselinesBecause() {
        return "each form is held against the plain handlers of the same run";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        boolean smoke = context.smoke();
        int consumers = context.options().chaos().consumers()
                .orElse(smoke ? ScaleScenario.SMOKE_CONSUMERS : ScaleScenario.DEFAULT_CONSUMERS);
        long messages = context.options().messages().orElse(smoke ? SMOKE_MESSAGES : DEFAULT_MESSAGES);
        String loadBefore = ScaleScenario.loadAverage();
        return ScaleLab.run(context, consumers, lab -> result(new HandlerFormDrains(lab, consumers).run(messages),
                consumers, messages, smoke, loadBefore));
    }

    private static ScenarioResult result(HandlerFormDrains.Result drains, int consumers, long messages, boolean smoke,
                                         String loadBefore) {
        List<Figure> figures = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        Map<String, List<ServerCost.Cost>> costs = new LinkedHashMap<>();
        List<Invariant> invariants = new ArrayList<>();
        Map<HandlerForm, List<Figure>> byForm = new LinkedHashMap<>();
        for (HandlerForm form : HandlerForm.values()) {
            HandlerFormDrains.Measured measured = drains.measured().get(form);
            List<Figure> own = new ArrayList<>(List.of(drains.both().get(form)));
            for (int g = 0; g < RealisticShape.GROUPS.size(); g++) {
                own.add(new Figure(HandlerFormDrains.groupLabel(form, RealisticShape.GROUPS.get(g)),
                        measured.groups.get(g)));
            }
            byForm.put(form, own);
            figures.addAll(own);
            costs.put(form.wireName() + " handlers (per handled message, both groups)", measured.costs);
            invariants.addAll(invariants(form, measured.tally));
        }
        List<String> notes = new ArrayList<>(design(consumers, messages, smoke, loadBefore));
        for (HandlerForm form : List.of(HandlerForm.TRANSACTIONAL, HandlerForm.BATCH)) {
            List<Figure> plain = byForm.get(HandlerForm.PLAIN);
            List<Figure> own = byForm.get(form);
            for (int f = 0; f < own.size(); f++) {
                comparisons.add(new Comparison(own.get(f), plain.get(f), "plain handlers, same run"));
            }
            notes.add(ratio(form, own.get(0), plain.get(0)));
        }
        notes.addAll(drains.notes());
        return new ScenarioResult(figures, comparisons, notes, invariants, List.of(ServerCost.table(costs)));
    }

    /** The form's msg/s and commits per message against plain's: medians, and each repetition against its own. */
    private static String ratio(HandlerForm form, Figure own, Figure plain) {
        StringBuilder pairs = new StringBuilder();
        for (int k = 0; k < own.samples().size(); k++) {
            pairs.append(k == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f×",
                    own.samples().get(k).values().get(Metric.THROUGHPUT)
                            / plain.samples().get(k).values().get(Metric.THROUGHPUT)));
        }
        return String.format(Locale.ROOT, "%s ÷ plain, both groups' handled msg/s: %.2f× (medians; each repetition"
                        + " against plain's of the same repetition: %s); commits per handled message %.3f against"
                        + " plain's %.3f.", form.wireName(), own.throughput().median() / plain.throughput().median(),
                pairs, own.summary(Metric.COMMITS_PER_MESSAGE).orElseThrow().median(),
                plain.summary(Metric.COMMITS_PER_MESSAGE).orElseThrow().median());
    }

    private static List<Invariant> invariants(HandlerForm form, RealisticShape.Tally tally) {
        String name = form.wireName() + ": ";
        String duplicates = "rows of a message after its first in the work tables";
        return List.of(
                Invariant.zero(name + "ordered violations", tally.orderViolations, "ordered messages whose first run"
                        + " inserted after the first run of a later message (higher id) of the same key, in either"
                        + " group"),
                Invariant.zero(name + "exclusive overlaps", tally.overlaps, "runs of a key that found its advisory"
                        + " lock held by another run of the key of the same group, in any process"),
                form == HandlerForm.PLAIN ? Invariant.counted(name + "duplicates", tally.duplicates, duplicates)
                        : Invariant.zero(name + "duplicates", tally.duplicates, duplicates + ": a run's row commits"
                        + " with its outcome, so without a crash none may run twice"));
    }

    private static List<String> design(int consumers, long messages, boolean smoke, String loadBefore) {
        return List.of(String.format(Locale.ROOT, "Design: the producer process pre-fills %,d keyed messages once and"
                        + " stops; then every drain is a fresh pair of groups (%s) reading that log from its beginning,"
                        + " a session of each in each of %d consumer processes (batchLimit %d, queueSize %d,"
                        + " messageConcurrency %d), each group's handler inserting one row per message into a table of"
                        + " its own: plain, in a transaction of its own on the process's pool of 4 connections;"
                        + " transactional, on the library's connection, committed with the range (each message under"
                        + " a savepoint); batch, all of a range's messages as one JDBC batch on the library's"
                        + " connection. Each repetition runs every form, the first one rotated (plain, transactional,"
                        + " batch; then transactional, batch, plain; …). Handled msg/s: from the first session's start"
                        + " to the group's last handler call (both groups: every handler call over the later of the"
                        + " two).", messages, String.join(" and ", RealisticShape.GROUPS), consumers,
                        RealisticShape.CONSUME.batchLimit(), RealisticShape.CONSUME.queueSize(),
                        RealisticShape.CONSUME.resolvedMessageConcurrency()),
                String.format(Locale.ROOT, "Commits per handled message: xact_commit of pg_stat_database for the"
                        + " database, read just before the sessions start and again once they have stopped and %d s"
                        + " have passed (a backend reports its statistics at most once a second while busy and"
                        + " within 10 s once idle), over the handler calls of both groups. The producer is stopped"
                        + " by then, so the count is the consumers' commits: the library's (claims, outcomes, cursor"
                        + " advances, leases, heartbeats), the plain handlers' own, and the harness's few (the"
                        + " groups' sessions starting and stopping, the lock-wait sampler's reads every 100 ms) and"
                        + " any other client of the same database. The same for every form, apart from the sampler's"
                        + " reads, which follow the drain's length.%s", (smoke ? HandlerFormDrains.SMOKE_SETTLE
                        : HandlerFormDrains.SETTLE).toSeconds(), smoke ? " In smoke mode the wait is too short for"
                        + " the figure to mean anything." : ""),
                String.format(Locale.ROOT, "This machine has %d cores, shared by PostgreSQL, the harness and %d"
                        + " consumer processes (load average %s before the scenario, %s after).",
                        Runtime.getRuntime().availableProcessors(), consumers, loadBefore,
                        ScaleScenario.loadAverage()));
    }
}
