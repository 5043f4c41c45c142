package io.sqlstreams.bench;

import java.util.List;

/**
 * What a scenario measured.
 *
 * @param figures     every measurement, in the order they ran
 * @param comparisons the figures held against the baselines
 * @param notes       lines printed under the scenario's table: what was run how, derived ratios, failures of
 *                    a part that could not be measured
 */
record ScenarioResult(List<Figure> figures, List<Comparison> comparisons, List<String> notes) {

    ScenarioResult {
        figures = List.copyOf(figures);
        comparisons = List.copyOf(comparisons);
        notes = List.copyOf(notes);
    }

    ScenarioResult(List<Figure> figures, List<Comparison> comparisons) {
        this(figures, comparisons, List.of());
    }
}
