package io.sqlstreams.cli;

import java.util.Map;

import picocli.CommandLine;

/**
 * Assembles the command tree with its error reporting; the environment supplies the connection defaults and the
 * prompt is where destroy verbs ask for a confirmation.
 */
final class SqlStreamsCli {
    private SqlStreamsCli() {
    }

    static CommandLine commandLine(Map<String, String> environment, Prompt prompt) {
        ErrorReporter errors = new ErrorReporter();
        return new CommandLine(new SqlStreamsCommand(environment, prompt))
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler(errors)
                .setExecutionExceptionHandler(errors);
    }
}
