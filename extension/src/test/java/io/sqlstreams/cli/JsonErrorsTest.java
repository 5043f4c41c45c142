package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.Code;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * With {@code --output json} every error is one JSON document on standard error, whatever failed: the command
 * line, the library, or the connection.
 */
@PostgresTest
class JsonErrorsTest {
    private static Map<String, String> environment;

    @BeforeAll
    static void registerStream(TestDatabase database) throws SQLException {
        EngineFixtures.client(database, new RecordingLogger()).stream("orders.created", Object.class).register();
        environment = CliRun.environmentFor(database);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-o json", "-ojson", "-o=json", "--output=json", "--output JSON"})
    void aUsageErrorIsADocumentWhereverTheOutputFlagStands(String outputFlag) {
        String[] flag = outputFlag.split(" ");
        String[] args = new String[flag.length + 3];
        args[0] = "stream";
        args[1] = "list";
        args[2] = "--no-such-flag";
        System.arraycopy(flag, 0, args, 3, flag.length);

        CliRun run = CliRun.run(environment, args);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        JsonObject error = run.error();
        assertThat(error.getString("code")).isEqualTo("usage");
        assertThat(error.getString("problem")).contains("--no-such-flag");
        assertThat(error.getString("recovery")).isEqualTo("permanent");
        assertThat(error.getJsonObject("values")).isEmpty();
        assertThat(error.get("cause")).isEqualTo(JsonValue.NULL);
        assertThat(error.getString("docs")).isEqualTo("sqlstreams stream list --help");
    }

    @Test
    void aLibraryErrorCarriesItsCatalogueEntry() {
        CliRun run = CliRun.run(environment, "stream", "config", "get", "orders.deleted", "-o", "json");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.out()).isEmpty();
        JsonObject error = run.error();
        assertThat(error.keySet()).containsExactly("code", "problem", "recovery", "values", "cause", "fix", "docs");
        assertThat(error.getString("code")).isEqualTo("SQL0005");
        assertThat(error.getString("problem")).doesNotStartWith("SQL0005").contains("\"orders.deleted\"");
        assertThat(error.getString("recovery")).isEqualTo("permanent");
        assertThat(error.getString("fix")).isEqualTo(Code.SQL0005.action());
        assertThat(error.getString("docs")).isEqualTo("sqlstreams explain SQL0005");
    }

    @Test
    void aKeyWithoutAHeadIsSql0066() {
        CliRun run = CliRun.run(environment, "stream", "key", "get", "orders.created", "order-1", "-o", "json");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.error().getString("code")).isEqualTo("SQL0066");
    }

    @Test
    void anInvalidNameNamesItInValues() {
        CliRun run = CliRun.run(environment, "--output", "json", "stream", "config", "get", "Bad Name");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.error().getJsonObject("values")).isEqualTo(Json.createObjectBuilder()
                .add("kind", "stream").add("name", "Bad Name").build());
    }

    @Test
    void anInvalidSettingNamesItsValue() {
        CliRun run = CliRun.run(environment, "stream", "key", "messages", "orders.created", "order-1",
                "--limit", "0", "-o", "json");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        JsonObject error = run.error();
        assertThat(error.getString("code")).isEqualTo("SQL0108");
        assertThat(error.getJsonObject("values")).isEqualTo(Json.createObjectBuilder().add("limit", "0").build());
    }

    @Test
    void anUnreachableDatabaseNamesWhereButNeverTheUrlWithItsPassword() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String url = "postgres://ops:s3cret-word@127.0.0.1:" + closedPort + "/app";

        CliRun run = CliRun.run(Map.of(), "stream", "list", "--url", url, "-o", "json");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(run.err()).doesNotContain("s3cret-word").doesNotContain(url);
        JsonObject error = run.error();
        assertThat(error.getString("code")).isEqualTo("SQL0110");
        assertThat(error.getString("recovery")).isEqualTo("transient");
        assertThat(error.getJsonObject("values")).isEqualTo(Json.createObjectBuilder()
                .add("location", "127.0.0.1:" + closedPort).build());
        assertThat(error.getString("cause")).isEqualTo("connection refused");
    }

    @Test
    void theTextFormStaysOneLineStartingWithTheCode() {
        CliRun run = CliRun.run(environment, "stream", "key", "get", "orders.created", "order-1");

        assertThat(run.errLines()).singleElement().asString().startsWith("SQL0066 no compacted message");
    }

    @Test
    void explainOfAnUnknownCodeIsNullLikeAnAbsentRow() {
        CliRun run = CliRun.run(Map.of(), "explain", "SQL9999", "-o", "json");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.json()).isEqualTo(JsonValue.NULL);
        assertThat(run.err()).isEmpty();
    }
}
