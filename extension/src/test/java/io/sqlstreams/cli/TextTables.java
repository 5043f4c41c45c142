package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the tool's aligned tables back, failing when a column is not aligned: cells are cut at the column
 * positions of the header (or, for a field table, of the first row), so a misaligned row reads wrongly.
 */
final class TextTables {
    private static final Pattern COLUMN_START = Pattern.compile("(?<=^|  )\\S");

    private TextTables() {
    }

    /** A table with a header row: one map per row, keyed by header. */
    static List<Map<String, String>> rows(List<String> lines) {
        assertThat(lines).as("table with a header").isNotEmpty();
        String header = lines.get(0);
        List<Integer> starts = columnStarts(header);
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < starts.size(); i++) {
                row.put(cut(header, starts, i), cut(line, starts, i));
            }
            rows.add(row);
        }
        return rows;
    }

    /** A two-column table of {@code name value} rows, in order. */
    static Map<String, String> fields(List<String> lines) {
        assertThat(lines).as("field table").isNotEmpty();
        List<Integer> starts = columnStarts(lines.get(0));
        assertThat(starts).as("columns of %s", lines.get(0)).hasSize(2);
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : lines) {
            String name = cut(line, starts, 0);
            assertThat(name).as("field name in %s", line).doesNotContain(" ");
            assertThat(line.charAt(starts.get(1) - 1)).as("value column of %s", line).isEqualTo(' ');
            fields.put(name, cut(line, starts, 1));
        }
        return fields;
    }

    private static List<Integer> columnStarts(String line) {
        List<Integer> starts = new ArrayList<>();
        Matcher start = COLUMN_START.matcher(line);
        while (start.find()) {
            starts.add(start.start());
        }
        return starts;
    }

    private static String cut(String line, List<Integer> starts, int column) {
        int from = Math.min(starts.get(column), line.length());
        int to = column + 1 < starts.size() ? Math.min(starts.get(column + 1), line.length()) : line.length();
        return line.substring(from, to).trim();
    }
}
