package io.sqlstreams.cli;

import picocli.CommandLine.Option;

/** What {@code list} and {@code get} verbs share: {@code --quiet} and how their kind of row is shown. */
abstract class RowCommand<R> extends InstallationCommand {
    @Option(names = {"-q", "--quiet"},
            description = "list: names only, one a line; get: no output, the exit code answers (0 registered, 1 not)")
    private boolean quiet;

    private final RowFormat<R> format;

    RowCommand(RowFormat<R> format) {
        this.format = format;
    }

    @Override
    final boolean quiet() {
        return quiet;
    }

    RowFormat<R> format() {
        return format;
    }
}
