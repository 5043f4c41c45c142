package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.JsonObject;

/** {@code system register|get|destroy}, each test on an installation schema of its own. */
@PostgresTest
class SystemCommandsTest {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    private TestDatabase database;
    private Map<String, String> environment;
    private String schema;

    @BeforeEach
    void pickSchema(TestDatabase database) throws SQLException {
        this.database = database;
        this.schema = database.extraSchema("cli" + SCHEMAS.incrementAndGet());
        this.environment = Map.of(SqlStreamsCommand.URL_VARIABLE, CliRun.jdbcUrl(database),
                SqlStreamsCommand.SCHEMA_VARIABLE, schema);
    }

    private void registerStream(String name) {
        try (EngineClient client = EngineClient.create(database.dataSource(), ClientConfig.builder().schema(schema)
                .logger(new RecordingLogger()).build(), EngineEnvironment.standalone())) {
            client.stream(name, Object.class).register();
        }
    }

    @Test
    void registerCreatesTheInstallationAndPrintsItFieldByField() {
        CliRun run = CliRun.run(environment, "system", "register", "--manager-poll-rate", "10s");

        assertThat(run.exitCode()).as(run.err()).isZero();
        Map<String, String> fields = TextTables.fields(run.outLines());
        assertThat(fields.keySet()).containsExactly("system_id", "schema", "version", "min_compatible_version",
                "manager_poll_rate", "created_at", "streams", "live_instances");
        assertThat(fields).containsEntry("schema", schema).containsEntry("version", "1")
                .containsEntry("min_compatible_version", "0").containsEntry("manager_poll_rate", "10s")
                .containsEntry("streams", "0").containsEntry("live_instances", "0");
    }

    @Test
    void getPrintsTheInstallationAsJson() {
        registerStream("cli.system.get");

        CliRun run = CliRun.run(environment, "system", "get", "-o", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonObject document = run.json().asJsonObject();
        assertThat(document.getString("schema")).isEqualTo(schema);
        assertThat(document.getInt("version")).isEqualTo(1);
        assertThat(document.getString("manager_poll_rate")).isEqualTo("30s");
        assertThat(document.getInt("streams")).isEqualTo(1);
        assertThat(document.getJsonNumber("system_id").longValue()).isPositive();
    }

    @Test
    void getOfAMissingInstallationIsSql0017AndExit1() {
        CliRun run = CliRun.run(environment, "system", "get");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("SQL0017 ");
    }

    @Test
    void aNegativePollRateIsAUsageError() {
        CliRun run = CliRun.run(environment, "system", "register", "--manager-poll-rate", "-5s");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("SQL0108 ").contains("managerPollRate");
    }

    @Test
    void destroyRefusesRegisteredStreamsUntilForced() throws SQLException {
        registerStream("cli.system.doomed");

        CliRun guarded = CliRun.run(environment, "system", "destroy");
        CliRun forced = CliRun.run(environment, "system", "destroy", "--force");

        assertThat(guarded.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(guarded.err()).startsWith("SQL0011 ");
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(forced.outLines()).containsExactly("destroyed the installation in schema " + schema);
        assertThat(new Sql(database).bool("SELECT to_regnamespace(?) IS NOT NULL", schema)).isFalse();
    }

    @Test
    void destroyReportsAsJson() {
        CliRun.run(environment, "system", "register");

        CliRun run = CliRun.run(environment, "system", "destroy", "-o", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonObject document = run.json().asJsonObject();
        assertThat(document.getString("schema")).isEqualTo(schema);
        assertThat(document.getBoolean("destroyed")).isTrue();
        assertThat(CliRun.run(environment, "system", "get").exitCode()).isEqualTo(ExitCodes.ABSENT);
    }
}
