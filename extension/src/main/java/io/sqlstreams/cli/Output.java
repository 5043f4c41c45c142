package io.sqlstreams.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonGenerator;

/** Standard output of one run, in the format the run asked for. */
final class Output {
    private final PrintWriter out;
    private final OutputFormat format;

    Output(PrintWriter out, OutputFormat format) {
        this.out = out;
        this.format = format;
    }

    boolean json() {
        return format == OutputFormat.JSON;
    }

    /** The run's one JSON document, on one line. */
    void json(JsonValue document) {
        out.println(oneLine(document));
        out.flush();
    }

    /** A JSON document as one line of text. */
    static String oneLine(JsonValue document) {
        StringWriter text = new StringWriter();
        try (JsonGenerator generator = Json.createGenerator(text)) {
            generator.write(document);
        }
        return text.toString();
    }

    /** One object: the JSON document, or its fields one a line. */
    void object(JsonObject object) {
        if (json()) {
            json(object);
        } else {
            table(TextTable.fields(object));
        }
    }

    /** One row: its JSON object, or its fields one a line as {@code get} shows them. */
    <R> void row(RowFormat<R> format, R row) {
        if (json()) {
            json(format.json().apply(row));
        } else {
            table(format.fields(row));
        }
    }

    /** Rows as a JSON array of their objects, or as their list table. */
    <R> void rows(RowFormat<R> format, List<R> rows) {
        if (json()) {
            json(format.array(rows));
        } else {
            table(format.table(rows));
        }
    }

    void table(TextTable table) {
        table.print(out);
        out.flush();
    }

    void line(String text) {
        out.println(text);
        out.flush();
    }
}
