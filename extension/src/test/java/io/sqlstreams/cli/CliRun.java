package io.sqlstreams.cli;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import io.sqlstreams.engine.schema.DdlScope;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import picocli.CommandLine;

/** One in-process run of the tool: its exit code and everything it printed. */
record CliRun(int exitCode, String out, String err) {
    /** This build's DDL versions as the tool names them, asked of {@link DdlScope}. */
    static final String BUILD_VERSIONS = "system DDL version " + DdlScope.SYSTEM.buildVersion()
            + ", stream DDL version " + DdlScope.STREAM.buildVersion();

    /** Runs {@code args} with {@code environment} as the process environment, without a terminal. */
    static CliRun run(Map<String, String> environment, String... args) {
        return execute(environment, null, Installation.ClientFactory.LIBRARY, args);
    }

    /** {@link #run} whose one-shot commands create their client with {@code clients}. */
    static CliRun withClients(Installation.ClientFactory clients, Map<String, String> environment, String... args) {
        return execute(environment, null, clients, args);
    }

    /**
     * Runs {@code args} as from a terminal where the operator types {@code typed} (lines) at any prompt; the
     * prompts go to standard error.
     */
    static CliRun typing(String typed, Map<String, String> environment, String... args) {
        return execute(environment, typed, Installation.ClientFactory.LIBRARY, args);
    }

    private static CliRun execute(Map<String, String> environment, String typed, Installation.ClientFactory clients,
                                  String[] args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        PrintWriter errWriter = new PrintWriter(err, true);
        Prompt prompt = typed == null ? Prompt.NONE
                : new Prompt(new BufferedReader(new StringReader(typed)), errWriter);
        CommandLine cli = SqlStreamsCli.commandLine(environment, prompt, clients);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(errWriter);
        int exitCode = cli.execute(args);
        return new CliRun(exitCode, out.toString(), err.toString());
    }

    /** An environment that points the tool at the test class's schema, as an operator's shell would. */
    static Map<String, String> environmentFor(TestDatabase database) throws SQLException {
        return Map.of(SqlStreamsCommand.URL_VARIABLE, jdbcUrl(database),
                SqlStreamsCommand.SCHEMA_VARIABLE, database.schema());
    }

    /** The URL the test pool connects with, credentials included. */
    static String jdbcUrl(TestDatabase database) throws SQLException {
        try (Connection connection = database.dataSource().getConnection()) {
            return connection.getMetaData().getURL();
        }
    }

    JsonValue json() {
        try (JsonReader reader = Json.createReader(new StringReader(out))) {
            return reader.readValue();
        }
    }

    /** Standard error as the one JSON error document of a run with {@code --output json}: its one line, parsed. */
    JsonObject error() {
        if (errLines().size() != 1) {
            throw new AssertionError("standard error is not one line: " + err);
        }
        try (JsonReader reader = Json.createReader(new StringReader(err))) {
            return reader.readObject();
        }
    }

    List<String> outLines() {
        return out.lines().toList();
    }

    List<String> errLines() {
        return err.lines().toList();
    }
}
