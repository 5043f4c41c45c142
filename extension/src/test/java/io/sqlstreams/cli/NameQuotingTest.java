package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * Issue 13 §6.6: a name the user typed is echoed quoted, its control characters, quotes and backslashes escaped
 * as in a Java string literal, so a one-line message stays one line whatever the name holds.
 */
@PostgresTest
class NameQuotingTest {
    private static final String STREAM = "orders.created";
    private static final String GROUP = "billing";

    private static Map<String, String> environment;

    @BeforeAll
    static void registerAGroup(TestDatabase database) throws SQLException {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        client.stream(STREAM, Numbered.class).register();
        client.stream(STREAM, Numbered.class).consumer(GROUP).register();
        environment = CliRun.environmentFor(database);
    }

    /** The run printed nothing on standard output and exactly one line on standard error. */
    private static String onlyErrorLine(CliRun run) {
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).as("standard error of %s", run).hasSize(1);
        return run.errLines().get(0);
    }

    @Test
    void anInvalidStreamNameWithANewlineIsOneEscapedLine() {
        CliRun run = CliRun.run(environment, "stream", "get", "orders\ncreated");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(onlyErrorLine(run)).startsWith("SQL0109 invalid stream name \"orders\\ncreated\": ");
    }

    @Test
    void anInvalidGroupNameWithAnotherControlCharacterIsOneEscapedLine() {
        CliRun get = CliRun.run(environment, "consumer", "get", STREAM, "bill\ring\u0007");
        CliRun workers = CliRun.run(environment, "consumer", "worker", "list", STREAM, "bill\ting");

        assertThat(get.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(onlyErrorLine(get)).startsWith("SQL0109 invalid consumer group name \"bill\\ring\\u0007\": ");
        assertThat(workers.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(onlyErrorLine(workers)).startsWith("SQL0109 invalid consumer group name \"bill\\ting\": ");
    }

    @Test
    void quotesAndBackslashesInANameAreEscapedToo() {
        CliRun run = CliRun.run(environment, "consumer", "list", "say \"hi\"\\\n");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(onlyErrorLine(run)).startsWith("SQL0109 invalid stream name \"say \\\"hi\\\"\\\\\\n\": ");
    }

    @Test
    void anUnknownCodeWithANewlineIsOneEscapedLine() {
        CliRun run = CliRun.run(environment, "explain", "SQL\n0059");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(onlyErrorLine(run)).startsWith("no diagnostic code or name \"SQL\\n0059\": ");
    }

    @Test
    void aStoredKeyFilterWithANewlineIsEchoedOnOneLine() {
        CliRun run = CliRun.run(environment, "consumer", "worker", "list", STREAM, GROUP, "message.\ntimeout");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.outLines()).containsExactly("no worker stores \"message.\\ntimeout\": it takes the library default");
    }

    @Test
    void anArgumentPicocliRejectsIsEchoedOnOneLine() {
        CliRun run = CliRun.run(environment, "stream", "get", STREAM, "extra\nargument");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(onlyErrorLine(run)).startsWith("usage: ").contains("extra\\nargument");
    }
}
