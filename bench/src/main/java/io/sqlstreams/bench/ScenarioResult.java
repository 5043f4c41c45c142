package io.sqlstreams.bench;

import java.util.List;

/**
 * What a scenario measured.
 *
 * @param figures     every measurement, in the order they ran
 * @param comparisons the figures held against the baselines
 */
record ScenarioResult(List<Figure> figures, List<Comparison> comparisons) {
}
