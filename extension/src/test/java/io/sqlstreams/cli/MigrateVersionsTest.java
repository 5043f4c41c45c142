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
import io.sqlstreams.engine.schema.DdlScope;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.JsonObject;

/** {@code migrate versions} and {@code migrate status}, each test on an installation schema of its own. */
@PostgresTest
class MigrateVersionsTest {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static final int SYSTEM = DdlScope.SYSTEM.buildVersion();
    private static final int STREAM = DdlScope.STREAM.buildVersion();

    private Map<String, String> environment;
    private String schema;
    private Sql sql;

    @BeforeEach
    void installWithAStream(TestDatabase database) throws SQLException {
        this.schema = database.extraSchema("mig" + SCHEMAS.incrementAndGet());
        this.environment = Map.of(SqlStreamsCommand.URL_VARIABLE, CliRun.jdbcUrl(database),
                SqlStreamsCommand.SCHEMA_VARIABLE, schema);
        this.sql = new Sql(database.dataSource(), schema);
        try (EngineClient client = EngineClient.create(database.dataSource(), ClientConfig.builder().schema(schema)
                .logger(new RecordingLogger()).build(), EngineEnvironment.standalone())) {
            client.stream("orders.placed", Object.class).register();
        }
    }

    /** Records a later system-scope step at {@code version}, readable by library versions from {@code minimum}. */
    private void recordSystemStep(int version, int minimum) throws SQLException {
        sql.update("INSERT INTO {s}.migration_log (system_id, version, min_compatible_version, status)"
                + " SELECT id, ?, ?, 'success' FROM {s}.system_config", version, minimum);
    }

    @Test
    void versionsListsTheSystemScopeAndEveryStream() {
        CliRun run = CliRun.run(environment, "migrate", "versions");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.outLines().get(0)).isEqualTo("this build: " + CliRun.BUILD_VERSIONS);
        assertThat(TextTables.rows(run.outLines().subList(1, run.outLines().size()))).containsExactly(
                Map.of("SCOPE", "system", "NAME", "-", "VERSION", Integer.toString(SYSTEM), "MIN_COMPATIBLE", "0"),
                Map.of("SCOPE", "stream", "NAME", "orders.placed", "VERSION", Integer.toString(STREAM),
                        "MIN_COMPATIBLE", "0"));
    }

    @Test
    void versionsAsJson() {
        JsonObject document = CliRun.run(environment, "migrate", "versions", "-o", "json").json().asJsonObject();

        assertThat(document.getString("schema")).isEqualTo(schema);
        assertThat(document.getJsonObject("build_versions").getInt("system")).isEqualTo(SYSTEM);
        assertThat(document.getJsonObject("build_versions").getInt("stream")).isEqualTo(STREAM);
        assertThat(document.getJsonObject("system").getInt("version")).isEqualTo(SYSTEM);
        assertThat(document.getJsonObject("system").getInt("min_compatible_version")).isZero();
        JsonObject stream = document.getJsonArray("streams").getJsonObject(0);
        assertThat(stream.getString("stream")).isEqualTo("orders.placed");
        assertThat(stream.getInt("version")).isEqualTo(STREAM);
    }

    @Test
    void statusOfACurrentInstallationSucceeds() {
        CliRun run = CliRun.run(environment, "migrate", "status");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.outLines().get(0)).isEqualTo("this build: " + CliRun.BUILD_VERSIONS
                + "; the installation is current");
        assertThat(TextTables.rows(run.outLines().subList(1, run.outLines().size()))).containsExactly(
                Map.of("SCOPE", "system", "NAME", "-", "VERSION", Integer.toString(SYSTEM), "MIN_COMPATIBLE", "0",
                        "STATUS", "current"),
                Map.of("SCOPE", "stream", "NAME", "orders.placed", "VERSION", Integer.toString(STREAM),
                        "MIN_COMPATIBLE", "0", "STATUS", "current"));
    }

    @Test
    void statusOfAStreamMigratedDownIsBehindAndUnusable() {
        assertThat(CliRun.run(environment, "migrate", "stream", "down", "orders.placed", "--to", "1").exitCode())
                .isZero();

        CliRun run = CliRun.run(environment, "migrate", "status", "-o", "json");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
        JsonObject document = run.json().asJsonObject();
        assertThat(document.getString("status")).isEqualTo("behind");
        assertThat(document.getJsonObject("system").getString("status")).isEqualTo("current");
        JsonObject stream = document.getJsonArray("streams").getJsonObject(0);
        assertThat(stream.getInt("version")).isEqualTo(1);
        assertThat(stream.getString("status")).isEqualTo("behind");
    }

    @Test
    void statusOfACompatibleNewerInstallationIsAheadAndUsable() throws SQLException {
        recordSystemStep(SYSTEM + 1, 0);

        JsonObject document = CliRun.run(environment, "migrate", "status", "-o", "json").json().asJsonObject();

        assertThat(document.getString("status")).isEqualTo("ahead");
        assertThat(document.getBoolean("usable")).isTrue();
        assertThat(document.getJsonObject("system").getString("status")).isEqualTo("ahead");
    }

    @Test
    void statusOfAnInstallationThatNeedsANewerLibraryFails() throws SQLException {
        recordSystemStep(SYSTEM + 1, SYSTEM + 1);

        CliRun text = CliRun.run(environment, "migrate", "status");
        CliRun json = CliRun.run(environment, "migrate", "status", "-o", "json");

        assertThat(text.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(text.outLines().get(0))
                .isEqualTo("this build: " + CliRun.BUILD_VERSIONS + "; the installation is too new: this build"
                        + " cannot use it");
        assertThat(json.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(json.json().asJsonObject().getString("status")).isEqualTo("too_new");
        assertThat(json.json().asJsonObject().getBoolean("usable")).isFalse();
    }

    @Test
    void aMissingInstallationIsSql0017AndExit1() {
        CliRun run = CliRun.run(environment, "migrate", "status", "--schema", schema + "_none");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.err()).startsWith("SQL0017 ");
    }
}
