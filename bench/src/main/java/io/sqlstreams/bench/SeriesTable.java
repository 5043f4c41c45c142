package io.sqlstreams.bench;

import java.util.List;

/**
 * A table a scenario reports beside its figures, already formatted: a series over time, a summary of one.
 *
 * @param title    its heading in the report
 * @param headings the column headings; a heading ending in {@code " →"} is right-aligned, the arrow dropped
 * @param rows     the cells, one list per row, as many as there are headings
 */
record SeriesTable(String title, List<String> headings, List<List<String>> rows) {

    SeriesTable {
        headings = List.copyOf(headings);
        rows = rows.stream().map(List::copyOf).toList();
        for (List<String> row : rows) {
            if (row.size() != headings.size()) {
                throw new IllegalArgumentException(title + ": a row of " + row.size() + " cells under "
                        + headings.size() + " headings");
            }
        }
    }
}
