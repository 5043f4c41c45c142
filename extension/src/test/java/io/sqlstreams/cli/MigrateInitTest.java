package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sqlstreams.engine.schema.DdlScope;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** {@code migrate init} on a schema that holds nothing yet, and again on the installation it made. */
@PostgresTest
class MigrateInitTest {

    @Test
    void createsTheSharedTablesOnceAndThenFindsThem(TestDatabase database) throws SQLException {
        Map<String, String> environment = CliRun.environmentFor(database);
        String fresh = database.extraSchema("fresh");

        CliRun first = CliRun.run(environment, "migrate", "init", "--schema", fresh);
        CliRun again = CliRun.run(environment, "migrate", "init", "--schema", fresh);
        CliRun againAsJson = CliRun.run(environment, "migrate", "init", "--schema", fresh, "-o", "json");

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.outLines()).containsExactly("created the installation in schema " + fresh
                + "; this build: " + CliRun.BUILD_VERSIONS);
        assertThat(tables(database, fresh)).isGreaterThanOrEqualTo(10);
        assertThat(again.exitCode()).isZero();
        assertThat(again.outLines()).containsExactly("schema " + fresh
                + " already holds the installation; this build: " + CliRun.BUILD_VERSIONS);
        JsonObject report = againAsJson.json().asJsonObject();
        assertThat(report.getString("schema")).isEqualTo(fresh);
        assertThat(report.getJsonObject("build_versions")).isEqualTo(Json.createObjectBuilder()
                .add("system", DdlScope.SYSTEM.buildVersion()).add("stream", DdlScope.STREAM.buildVersion()).build());
        assertThat(report.getJsonNumber("system_id").longValue()).isPositive();
        assertThat(report.getBoolean("created")).isFalse();
        assertThat(CliRun.run(environment, "stream", "list", "--schema", fresh, "-o", "json").json())
                .isEqualTo(JsonValue.EMPTY_JSON_ARRAY);
    }

    @Test
    void reportsCreationInJson(TestDatabase database) throws SQLException {
        String fresh = database.extraSchema("json");

        CliRun run = CliRun.run(CliRun.environmentFor(database), "migrate", "init", "--schema", fresh, "--output", "json");

        assertThat(run.exitCode()).isZero();
        assertThat(run.json().asJsonObject().getBoolean("created")).isTrue();
        assertThat(tables(database, fresh)).isGreaterThanOrEqualTo(10);
    }

    private static int tables(TestDatabase database, String schema) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT count(*) FROM information_schema.tables WHERE table_schema = ?")) {
            query.setString(1, schema);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }
}
