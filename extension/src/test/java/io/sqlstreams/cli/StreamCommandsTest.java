package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** {@code stream list} and {@code stream get} against two registered streams. */
@PostgresTest
class StreamCommandsTest {
    private static Map<String, String> environment;
    private static Stream orders;
    private static Stream billing;

    @BeforeAll
    static void registerStreams(TestDatabase database) throws SQLException {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        orders = client.stream("orders.created", Object.class).register(StreamConfig.builder().partitionSize(5000L)
                .retentionTtl(Duration.ofDays(7)).deliveryLogMode(DeliveryLogMode.ALL)
                .fenceWarnAfter(Duration.ofSeconds(45)).build());
        billing = client.stream("billing.events", Object.class).register();
        environment = CliRun.environmentFor(database);
    }

    @Test
    void listShowsEveryStreamInAnAlignedTableOrderedByName() {
        CliRun run = CliRun.run(environment, "stream", "list");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        List<Map<String, String>> rows = TextTables.rows(run.outLines());
        assertThat(rows).extracting(row -> row.get("NAME")).containsExactly("billing.events", "orders.created");
        assertThat(rows.get(1)).containsEntry("ID", Long.toString(orders.id()))
                .containsEntry("PARTITION_SIZE", "5000")
                .containsEntry("RETENTION_TTL", "168h0m0s")
                .containsEntry("DELIVERY_LOG_MODE", "all")
                .containsEntry("CREATED_AT", orders.createdAt().toString());
        assertThat(rows.get(0)).containsEntry("RETENTION_TTL", "0s").containsEntry("DELIVERY_LOG_MODE", "failures");
    }

    @Test
    void listQuietPrintsNamesOnly() {
        CliRun run = CliRun.run(environment, "stream", "list", "--quiet");

        assertThat(run.exitCode()).isZero();
        assertThat(run.outLines()).containsExactly("billing.events", "orders.created");
    }

    @Test
    void listJsonIsAnArrayOfWholeRows() {
        CliRun run = CliRun.run(environment, "stream", "list", "--output", "json");

        assertThat(run.exitCode()).isZero();
        JsonArray rows = run.json().asJsonArray();
        assertThat(rows).hasSize(2);
        assertOrdersRow(rows.getJsonObject(1));
        assertThat(rows.getJsonObject(0).getJsonNumber("id").longValue()).isEqualTo(billing.id());
    }

    @Test
    void listOfASchemaWithoutAnInstallationIsEmpty(TestDatabase database) {
        String empty = database.extraSchema("empty");

        CliRun table = CliRun.run(environment, "--schema", empty, "stream", "list");
        CliRun json = CliRun.run(environment, "stream", "list", "--schema", empty, "-o", "json");

        assertThat(table.exitCode()).isZero();
        assertThat(TextTables.rows(table.outLines())).isEmpty();
        assertThat(json.exitCode()).isZero();
        assertThat(json.json()).isEqualTo(JsonValue.EMPTY_JSON_ARRAY);
    }

    @Test
    void getShowsTheRowFieldByField() {
        CliRun run = CliRun.run(environment, "stream", "get", "orders.created");

        assertThat(run.exitCode()).isZero();
        assertThat(TextTables.fields(run.outLines())).containsExactly(
                Map.entry("id", Long.toString(orders.id())),
                Map.entry("name", "orders.created"),
                Map.entry("partition_size", "5000"),
                Map.entry("retention_ttl", "168h0m0s"),
                Map.entry("allow_drop_past_committed", "false"),
                Map.entry("idempotency_key_ttl", "24h0m0s"),
                Map.entry("empty_compaction_head_ttl", "1h0m0s"),
                Map.entry("delivery_log_mode", "all"),
                Map.entry("fence_warn_after", "45s"),
                Map.entry("created_at", orders.createdAt().toString()),
                Map.entry("updated_at", orders.updatedAt().toString()));
    }

    @Test
    void getJsonIsTheRowOrNullWithExitOne() {
        CliRun present = CliRun.run(environment, "stream", "get", "orders.created", "-o", "json");
        CliRun absent = CliRun.run(environment, "stream", "get", "orders.deleted", "-o", "json");

        assertThat(present.exitCode()).isZero();
        assertOrdersRow(present.json().asJsonObject());
        assertThat(absent.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(absent.json()).isEqualTo(JsonValue.NULL);
        assertThat(absent.err()).isEmpty();
    }

    @Test
    void getQuietAnswersWithTheExitCodeAlone() {
        CliRun present = CliRun.run(environment, "stream", "get", "-q", "billing.events");
        CliRun absent = CliRun.run(environment, "stream", "get", "-q", "billing.missing");

        assertThat(present.exitCode()).isZero();
        assertThat(absent.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(present.out() + present.err() + absent.out() + absent.err()).isEmpty();
    }

    @Test
    void getOfAnAbsentStreamSaysSoWithItsCode() {
        CliRun run = CliRun.run(environment, "stream", "get", "orders.deleted");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).containsExactly("SQL0005 stream \"orders.deleted\" is not registered");
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "get orders.created"})
    void quietWithJsonIsAUsageError(String verb) {
        String[] args = ("stream " + verb + " --quiet --output json").split(" ");

        CliRun run = CliRun.run(environment, args);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.error().getString("code")).isEqualTo("usage");
        assertThat(run.error().getString("problem")).isEqualTo("--quiet and --output json cannot be combined");
    }

    @Test
    void anInvalidNameIsAUsageErrorWithItsCode() {
        CliRun run = CliRun.run(environment, "stream", "get", "Bad Name");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().startsWith("SQL0109 invalid stream name \"Bad Name\": ");
    }

    @Test
    void aMissingArgumentOrUnknownFlagIsAUsageError() {
        CliRun missing = CliRun.run(environment, "stream", "get");
        CliRun unknown = CliRun.run(environment, "stream", "list", "--colour");

        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.errLines()).singleElement().asString().startsWith("usage: Missing required parameter");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.errLines()).singleElement().asString().startsWith("usage: Unknown option: '--colour'");
    }

    private static void assertOrdersRow(JsonObject row) {
        assertThat(row.getJsonNumber("id").longValue()).isEqualTo(orders.id());
        assertThat(row.getString("name")).isEqualTo("orders.created");
        assertThat(row.getJsonNumber("partition_size").longValue()).isEqualTo(5000);
        assertThat(row.getString("retention_ttl")).isEqualTo("168h0m0s");
        assertThat(row.getBoolean("allow_drop_past_committed")).isFalse();
        assertThat(row.getString("idempotency_key_ttl")).isEqualTo("24h0m0s");
        assertThat(row.getString("empty_compaction_head_ttl")).isEqualTo("1h0m0s");
        assertThat(row.getString("delivery_log_mode")).isEqualTo("all");
        assertThat(row.getString("fence_warn_after")).isEqualTo("45s");
        assertThat(Instant.parse(row.getString("created_at"))).isEqualTo(orders.createdAt());
        assertThat(Instant.parse(row.getString("updated_at"))).isEqualTo(orders.updatedAt());
    }
}
