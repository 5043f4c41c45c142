package io.sqlstreams.cli;

import java.util.Map;

import picocli.CommandLine;

/** Assembles the command tree with its error reporting; the environment supplies the connection defaults. */
final class SqlStreamsCli {
    private SqlStreamsCli() {
    }

    static CommandLine commandLine(Map<String, String> environment) {
        ErrorReporter errors = new ErrorReporter();
        return new CommandLine(new SqlStreamsCommand(environment))
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler(errors)
                .setExecutionExceptionHandler(errors);
    }
}
