package io.sqlstreams.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/** Rows of cells printed in columns as wide as their widest cell, two spaces apart. */
final class TextTable {
    /** How a missing value (JSON {@code null}) reads in a table. */
    static final String NONE = "-";

    private final List<List<String>> rows = new ArrayList<>();

    /** A table whose first row is {@code headers}. */
    static TextTable withHeaders(String... headers) {
        return new TextTable().row(Arrays.asList(headers));
    }

    /** An object's fields, one {@code name value} row each. */
    static TextTable fields(JsonObject object) {
        TextTable table = new TextTable();
        for (Map.Entry<String, JsonValue> field : object.entrySet()) {
            table.row(List.of(field.getKey(), cell(field.getValue())));
        }
        return table;
    }

    /** A JSON value as a table shows it: strings without quotes, {@code null} as {@value #NONE}. */
    static String cell(JsonValue value) {
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return NONE;
        }
        return value instanceof JsonString text ? text.getString() : value.toString();
    }

    /** An object's fields in one cell: {@code queue=invoices,region=eu}, or {@value #NONE} for none. */
    static String pairs(JsonObject object) {
        return object.isEmpty() ? NONE : object.entrySet().stream()
                .map(field -> field.getKey() + "=" + cell(field.getValue()))
                .collect(Collectors.joining(","));
    }

    TextTable row(List<String> cells) {
        rows.add(List.copyOf(cells));
        return this;
    }

    TextTable row(String... cells) {
        return row(Arrays.asList(cells));
    }

    void print(PrintWriter out) {
        int columns = rows.stream().mapToInt(List::size).max().orElse(0);
        int[] widths = new int[columns];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(row.get(i));
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - row.get(i).length() + 2));
                }
            }
            out.println(line);
        }
    }
}
