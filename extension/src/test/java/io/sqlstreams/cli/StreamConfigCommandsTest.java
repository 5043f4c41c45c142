package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonValue;

/** {@code stream config get} on a stream declared with every setting changed and one left at its defaults. */
@PostgresTest
class StreamConfigCommandsTest {
    private static Map<String, String> environment;

    @BeforeAll
    static void registerStreams(TestDatabase database) throws SQLException {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        client.stream("orders.tuned", Object.class).register(StreamConfig.builder().retentionTtl(Duration.ofDays(7))
                .allowDropPastCommitted(true).idempotencyKeyTtl(Duration.ofHours(2))
                .emptyCompactionHeadTtl(Duration.ofMinutes(30)).deliveryLogMode(DeliveryLogMode.ALL)
                .fenceWarnAfter(Duration.ofSeconds(30)).build());
        client.stream("orders.plain", Object.class).register();
        environment = CliRun.environmentFor(database);
    }

    @Test
    void everySettingShowsItsValueBesideItsDefault() {
        CliRun run = CliRun.run(environment, "stream", "config", "get", "orders.tuned");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(TextTables.rows(run.outLines())).containsExactly(
                Map.of("KEY", "retention_ttl", "VALUE", "168h0m0s", "DEFAULT", "forever"),
                Map.of("KEY", "allow_drop_past_committed", "VALUE", "true", "DEFAULT", "false"),
                Map.of("KEY", "idempotency_key_ttl", "VALUE", "2h0m0s", "DEFAULT", "24h0m0s"),
                Map.of("KEY", "empty_compaction_head_ttl", "VALUE", "30m0s", "DEFAULT", "1h0m0s"),
                Map.of("KEY", "delivery_log_mode", "VALUE", "all", "DEFAULT", "failures"),
                Map.of("KEY", "fence_warn_after", "VALUE", "30s", "DEFAULT", "10s"));
    }

    @Test
    void jsonIsAnArrayOfKeyValueDefaultObjects() {
        CliRun run = CliRun.run(environment, "stream", "config", "get", "orders.plain", "-o", "json");

        assertThat(run.exitCode()).isZero();
        JsonArray settings = run.json().asJsonArray();
        assertThat(settings).hasSize(6);
        assertThat(settings.getJsonObject(0)).isEqualTo(Json.createObjectBuilder().add("key", "retention_ttl")
                .add("value", "forever").add("default", "forever").build());
        assertThat(settings.getJsonObject(1)).isEqualTo(Json.createObjectBuilder()
                .add("key", "allow_drop_past_committed").add("value", JsonValue.FALSE).add("default", JsonValue.FALSE)
                .build());
    }

    @Test
    void aKeyShowsThatSettingOnly() {
        CliRun table = CliRun.run(environment, "stream", "config", "get", "orders.tuned", "idempotency_key_ttl");
        CliRun json = CliRun.run(environment, "stream", "config", "get", "orders.tuned", "delivery_log_mode",
                "-o", "json");

        assertThat(table.exitCode()).isZero();
        assertThat(TextTables.rows(table.outLines())).containsExactly(
                Map.of("KEY", "idempotency_key_ttl", "VALUE", "2h0m0s", "DEFAULT", "24h0m0s"));
        assertThat(json.exitCode()).isZero();
        assertThat(json.json()).isEqualTo(Json.createObjectBuilder().add("key", "delivery_log_mode")
                .add("value", "all").add("default", "failures").build());
    }

    @Test
    void theFenceWarningIsADurationBesideItsDefault() {
        CliRun tuned = CliRun.run(environment, "stream", "config", "get", "orders.tuned", "fence_warn_after", "-o",
                "json");
        CliRun plain = CliRun.run(environment, "stream", "config", "get", "orders.plain", "fence_warn_after");

        assertThat(List.of(tuned, plain)).extracting(CliRun::exitCode).containsOnly(ExitCodes.OK);
        assertThat(tuned.json()).isEqualTo(Json.createObjectBuilder().add("key", "fence_warn_after")
                .add("value", "30s").add("default", "10s").build());
        assertThat(TextTables.rows(plain.outLines())).containsExactly(
                Map.of("KEY", "fence_warn_after", "VALUE", "10s", "DEFAULT", "10s"));
    }

    @Test
    void anUnknownKeyIsAUsageErrorThatListsTheKeys() {
        CliRun run = CliRun.run(environment, "stream", "config", "get", "orders.tuned", "partition_size");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().startsWith("usage: unknown stream setting")
                .contains("retention_ttl, allow_drop_past_committed, idempotency_key_ttl")
                .contains("delivery_log_mode, fence_warn_after");
    }

    @Test
    void anUnknownStreamIsSql0005() {
        CliRun run = CliRun.run(environment, "stream", "config", "get", "orders.deleted");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().startsWith("SQL0005 ");
    }

    @Test
    void anInvalidStreamNameIsAUsageError() {
        CliRun run = CliRun.run(environment, "stream", "config", "get", "Orders Created");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errLines()).singleElement().asString().startsWith("SQL0109 ");
    }
}
