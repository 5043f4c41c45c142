package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.schema.DdlScope;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

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
        assertThat(fields.keySet()).startsWith("system_id", "schema", "version", "min_compatible_version",
                "manager_poll_rate", "metric_collector_poll_rate", "created_at", "streams", "live_instances");
        assertThat(fields).containsEntry("schema", schema)
                .containsEntry("version", String.valueOf(DdlScope.SYSTEM.buildVersion()))
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
        assertThat(document.getInt("version")).isEqualTo(DdlScope.SYSTEM.buildVersion());
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
    void registerStoresEveryAlertPolicyFlagAndGetShowsThem() {
        CliRun register = CliRun.run(environment, "system", "register", "--metric-collector-poll-rate", "10s",
                "--partition-count-threshold", "500", "--partition-count-schedule", "@every 30s",
                "--partition-count-pending", "5m", "--partition-count-maximum-gap", "3m",
                "--partition-count-disable-pending",
                "--compaction-read-cost-threshold", "20000", "--compaction-read-cost-schedule", "@every 2m",
                "--compaction-read-cost-pending", "10m", "--compaction-read-cost-maximum-gap", "4m",
                "--worker-liveness-threshold", "2", "--worker-liveness-schedule", "@every 15s",
                "--worker-liveness-pending", "PT1M", "--worker-liveness-maximum-gap", "90s",
                "--worker-liveness-disable-pending",
                "--fence-held-threshold", "30", "--fence-held-schedule", "@every 20s", "--fence-held-pending", "1m",
                "--fence-held-maximum-gap", "2m",
                "--collector-progress-schedule", "@every 45s", "--collector-progress-maximum-age", "7m",
                "--collector-progress-pending", "3m", "--collector-progress-disable-pending");

        CliRun get = CliRun.run(environment, "system", "get", "-o", "json");

        assertThat(register.exitCode()).as(register.err()).isZero();
        assertThat(get.exitCode()).as(get.err()).isZero();
        JsonObject document = get.json().asJsonObject();
        assertThat(document.getString("metric_collector_poll_rate")).isEqualTo("10s");
        JsonObject alerts = document.getJsonObject("alerts");
        assertThat(alerts.getJsonObject("partition_count")).isEqualTo(policy("@every 30s", "500", "5m0s", "3m0s",
                true));
        assertThat(alerts.getJsonObject("compaction_read_cost")).isEqualTo(policy("@every 2m", "20000", "10m0s",
                "4m0s", false));
        assertThat(alerts.getJsonObject("worker_liveness")).isEqualTo(policy("@every 15s", "2", "1m0s", "1m30s",
                true));
        assertThat(alerts.getJsonObject("fence_held")).isEqualTo(policy("@every 20s", "30", "1m0s", "2m0s", false));
        assertThat(alerts.getJsonObject("metrics_collector_progress")).isEqualTo(StoredKeys.parse(
                "{\"schedule\":\"@every 45s\",\"maximum_age\":\"7m0s\",\"pending_duration\":\"3m0s\","
                        + "\"disable_pending\":true}"));
        assertThat(TextTables.fields(CliRun.run(environment, "system", "get").outLines()))
                .containsEntry("alerts.partition_count.threshold", "500")
                .containsEntry("alerts.worker_liveness.maximum_gap", "1m30s")
                .containsEntry("alerts.metrics_collector_progress.maximum_age", "7m0s");
    }

    @Test
    void getShowsTheDefaultPoliciesWithAnUnsetThresholdAsNone() {
        CliRun.run(environment, "system", "register");

        Map<String, String> fields = TextTables.fields(CliRun.run(environment, "system", "get").outLines());

        assertThat(fields).containsEntry("metric_collector_poll_rate", "30s")
                .containsEntry("alerts.partition_count.schedule", "@every 1m")
                .containsEntry("alerts.partition_count.threshold", TextTable.NONE)
                .containsEntry("alerts.compaction_read_cost.pending_duration", "2m0s")
                .containsEntry("alerts.worker_liveness.disable_pending", "false")
                .containsEntry("alerts.fence_held.threshold", TextTable.NONE)
                .containsEntry("alerts.metrics_collector_progress.maximum_age", "2m0s");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--partition-count-threshold|many|--partition-count-threshold",
        "--worker-liveness-threshold|-1|workerLivenessAlert.threshold",
        "--compaction-read-cost-pending|5 minutes|--compaction-read-cost-pending",
        "--worker-liveness-maximum-gap|-1s|workerLivenessAlert.maximumGap",
        "--fence-held-threshold|-1|fenceHeldAlert.threshold",
        "--partition-count-schedule|every 1m|partitionCountAlert.schedule",
        "--compaction-read-cost-schedule|@every 0s|compactionReadCostAlert.schedule",
        "--collector-progress-maximum-age|-2m|metricCollectorProgressAlert.maximumAge",
        "--collector-progress-pending|soon|--collector-progress-pending",
        "--collector-progress-schedule|@hourly|metricCollectorProgressAlert.schedule",
        "--metric-collector-poll-rate|fast|--metric-collector-poll-rate"})
    void aBadPolicyValueIsSql0108NamingItsFlagOrPropertyAndStoresNothing(String flag, String value, String named) {
        CliRun.run(environment, "system", "register");
        JsonValue before = CliRun.run(environment, "system", "get", "-o", "json").json();

        CliRun run = CliRun.run(environment, "system", "register", flag, value);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("SQL0108 ").contains(named);
        assertThat(run.out()).isEmpty();
        assertThat(CliRun.run(environment, "system", "get", "-o", "json").json()).isEqualTo(before);
    }

    private static JsonObject policy(String schedule, String threshold, String pending, String gap,
                                     boolean disablePending) {
        return StoredKeys.parse("{\"schedule\":\"" + schedule + "\",\"threshold\":" + threshold
                + ",\"pending_duration\":\"" + pending + "\",\"maximum_gap\":\"" + gap
                + "\",\"disable_pending\":" + disablePending + "}");
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
