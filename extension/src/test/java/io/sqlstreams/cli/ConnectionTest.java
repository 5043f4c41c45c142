package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.JsonValue;

/** How a run finds its database: {@code --url}/{@code --schema} or their variables, and what it says when it cannot. */
@PostgresTest
class ConnectionTest {

    @Test
    void theUrlAndSchemaComeFromTheEnvironmentOrFromFlagsAnywhereOnTheLine(TestDatabase database) throws SQLException {
        String url = CliRun.jdbcUrl(database);
        String schema = database.schema();

        CliRun fromEnvironment = CliRun.run(CliRun.environmentFor(database), "stream", "list", "-o", "json");
        CliRun flagsFirst = CliRun.run(Map.of(), "--url", url, "--schema", schema, "stream", "list", "-o", "json");
        CliRun flagsLast = CliRun.run(Map.of(), "stream", "list", "-o", "json", "--url", url, "--schema", schema);
        CliRun flagsOverrideEnvironment = CliRun.run(
                Map.of(SqlStreamsCommand.URL_VARIABLE, "jdbc:postgresql://127.0.0.1:1/none"),
                "stream", "list", "--url", url, "--schema", schema, "-o", "json");

        for (CliRun run : new CliRun[] {fromEnvironment, flagsFirst, flagsLast, flagsOverrideEnvironment}) {
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.json()).isEqualTo(JsonValue.EMPTY_JSON_ARRAY);
        }
    }

    @Test
    void anUnreachableDatabaseIsOnePlainLine() throws IOException {
        int closedPort = closedPort();

        CliRun run = CliRun.run(Map.of(), "stream", "list", "--url", "jdbc:postgresql://127.0.0.1:" + closedPort + "/db");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).containsExactly(
                "SQL0110 cannot reach PostgreSQL at 127.0.0.1:" + closedPort + ": connection refused");
    }

    @Test
    void anUnknownHostIsNamed() {
        CliRun run = CliRun.run(Map.of(SqlStreamsCommand.URL_VARIABLE, "postgres://app:secret@db.invalid/app"),
                "consumer", "get", "payments", "charge-cards");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(run.errLines()).containsExactly(
                "SQL0110 cannot reach PostgreSQL at db.invalid:5432: unknown host db.invalid");
    }

    @Test
    void noUrlIsAUsageError() {
        CliRun run = CliRun.run(Map.of(), "stream", "list");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errLines()).containsExactly(
                "usage: no database given: pass --url or set SQLSTREAMS_URL (see 'sqlstreams stream list --help')");
    }

    @Test
    void aUrlThatIsNotPostgresIsAUsageErrorThatDoesNotRepeatIt() {
        CliRun run = CliRun.run(Map.of(), "stream", "list", "--url", "mysql://root:hunter2@db/app");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errLines()).singleElement().asString().startsWith("usage: --url must be a PostgreSQL URL")
                .doesNotContain("hunter2");
    }

    @Test
    void anInvalidSchemaNameIsAUsageErrorWithItsCode(TestDatabase database) throws SQLException {
        CliRun list = CliRun.run(CliRun.environmentFor(database), "stream", "list", "--schema", "Bad-Schema");
        CliRun init = CliRun.run(CliRun.environmentFor(database), "migrate", "init", "--schema", "Bad-Schema");

        for (CliRun run : new CliRun[] {list, init}) {
            assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(run.errLines()).singleElement().asString().startsWith("SQL0109 invalid schema name \"Bad-Schema\"");
        }
    }

    @Test
    void aMissingSubcommandIsAUsageError() {
        CliRun run = CliRun.run(Map.of(), "consumer");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errLines()).singleElement().asString().startsWith("usage: Missing required subcommand");
    }

    @Test
    void helpListsTheCommands() {
        CliRun run = CliRun.run(Map.of(), "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("stream", "consumer", "migrate", "explain", "--url", "--schema", "--output");
    }

    @Test
    void versionNamesTheToolAndTheDdlVersionItReadsWithoutADatabase() {
        CliRun run = CliRun.run(Map.of(), "--version");

        assertThat(run.exitCode()).isZero();
        assertThat(run.outLines()).containsExactly("sqlstreams (development build), " + CliRun.BUILD_VERSIONS);
    }

    /** A local port nothing listens on: bound once to find it free, then released. */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
