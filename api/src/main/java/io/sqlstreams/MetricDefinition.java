package io.sqlstreams;

import java.util.List;

/**
 * One built-in metric of the catalogue.
 *
 * @param code        its diagnostic code, whose title is the metric's name
 * @param kind        gauge or counter
 * @param unit        its UCUM unit: {@code ms}, {@code s}, an annotation such as {@code {message}}, or empty
 *                    for a dimensionless value
 * @param scope       what one series describes
 * @param attributes  the attribute keys every series carries: the scope's, plus {@code alert} for the alert
 *                    checks' series
 */
public record MetricDefinition(Code code, MetricKind kind, String unit, MetricScope scope, List<String> attributes) {

    public MetricDefinition {
        attributes = List.copyOf(attributes);
    }

    /** The metric's name, such as {@code sqlstreams.consumer.cursor.backlog}. */
    public String name() {
        return code.title();
    }

    /** What the metric measures, from the code catalogue. */
    public String description() {
        return code.meaning();
    }
}
