package io.sqlstreams.cli;

import java.util.List;

/** A {@code list} verb: a table, names only with {@code --quiet}, or a JSON array. An empty list succeeds. */
abstract class ListCommand<R> extends RowCommand<R> {
    ListCommand(RowFormat<R> format) {
        super(format);
    }

    /** The rows to list, read through {@code installation}. */
    abstract List<R> rows(Installation installation);

    @Override
    int run(Output output, Installation installation) {
        List<R> rows = rows(installation);
        RowFormat<R> format = format();
        if (quiet()) {
            rows.forEach(row -> output.line(format.name().apply(row)));
        } else {
            output.rows(format, rows);
        }
        return ExitCodes.OK;
    }
}
