package io.sqlstreams.bench;

import java.util.List;

/**
 * What a scenario measured.
 *
 * @param figures     every measurement, in the order they ran
 * @param comparisons the figures held against the baselines
 * @param notes       lines printed under the scenario's table: what was run how, derived ratios, failures of
 *                    a part that could not be measured
 * @param invariants  promises checked outright (the chaos lab's ledger); any broken one fails the run
 * @param tables      series over time and their summaries, printed after the figures
 */
record ScenarioResult(List<Figure> figures, List<Comparison> comparisons, List<String> notes,
                      List<Invariant> invariants, List<SeriesTable> tables) {

    ScenarioResult {
        figures = List.copyOf(figures);
        comparisons = List.copyOf(comparisons);
        notes = List.copyOf(notes);
        invariants = List.copyOf(invariants);
        tables = List.copyOf(tables);
    }

    ScenarioResult(List<Figure> figures, List<Comparison> comparisons, List<String> notes,
                   List<Invariant> invariants) {
        this(figures, comparisons, notes, invariants, List.of());
    }

    ScenarioResult(List<Figure> figures, List<Comparison> comparisons, List<String> notes) {
        this(figures, comparisons, notes, List.of());
    }

    ScenarioResult(List<Figure> figures, List<Comparison> comparisons) {
        this(figures, comparisons, List.of());
    }

    boolean invariantsPassed() {
        return invariants.stream().allMatch(Invariant::passed);
    }
}
