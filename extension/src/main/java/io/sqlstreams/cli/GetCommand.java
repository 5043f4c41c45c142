package io.sqlstreams.cli;

import java.util.Optional;

import jakarta.json.JsonValue;

/**
 * A {@code get} verb: the row's fields, or with {@code --quiet} only the exit code (0 registered, 1 absent), or the
 * row as JSON ({@code null} and exit 1 when absent).
 */
abstract class GetCommand<R> extends RowCommand<R> {
    GetCommand(RowFormat<R> format) {
        super(format);
    }

    /** The row, or empty when it is not registered; SQL0109 for an invalid name. */
    abstract Optional<R> row(Installation installation);

    /** The error line for a row that is not registered, starting with its code. */
    abstract String absence();

    @Override
    int run(Output output, Installation installation) {
        Optional<R> row = row(installation);
        if (quiet()) {
            return exitCode(row);
        }
        if (output.json()) {
            output.json(row.<JsonValue>map(format().json()).orElse(JsonValue.NULL));
        } else if (row.isPresent()) {
            printText(output, row.get());
        } else {
            err().println(absence());
        }
        return exitCode(row);
    }

    /** Prints a present row as text: its fields, one a line. */
    void printText(Output output, R row) {
        output.table(format().fields(row));
    }

    private static int exitCode(Optional<?> row) {
        return row.isPresent() ? ExitCodes.OK : ExitCodes.ABSENT;
    }
}
