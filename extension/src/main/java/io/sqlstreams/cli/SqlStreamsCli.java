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
        return commandLine(environment, prompt, Installation.ClientFactory.LIBRARY);
    }

    /** {@link #commandLine(Map, Prompt)} whose one-shot commands create their client with {@code clients}. */
    static CommandLine commandLine(Map<String, String> environment, Prompt prompt, Installation.ClientFactory clients) {
        ErrorReporter errors = new ErrorReporter();
        return new CommandLine(new SqlStreamsCommand(environment, prompt, clients))
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler(errors)
                .setExecutionExceptionHandler(errors);
    }
}
