package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertHandle;
import io.sqlstreams.AlertStatus;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.BackgroundManager;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * {@code alert list|latest|history|status} against real reports: the manager's alert checks record
 * {@code partition_count} (threshold 1, then resolved by a threshold nobody reaches) on one stream and
 * {@code metrics_collector_progress} on the system, under policies declared with {@code system register}'s flags.
 * The quiet stream is registered once no threshold it reaches is declared, so it never has a report.
 */
@PostgresTest
class AlertCommandsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ALERTED = "cli.alerts.orders";
    private static final String QUIET = "cli.alerts.quiet";
    private static final List<String> FAST = List.of("system", "register", "--manager-poll-rate", "200ms",
            "--partition-count-schedule", "@every 200ms", "--partition-count-disable-pending",
            "--collector-progress-schedule", "@every 200ms", "--collector-progress-maximum-age", "1s",
            "--collector-progress-disable-pending");

    private static Map<String, String> environment;
    private static long alertedId;
    private static EngineClient client;
    private static BackgroundManager manager;

    @SchemaVersion(1)
    public record Order(int n) {
    }

    @BeforeAll
    static void recordAlerts(TestDatabase database) throws SQLException {
        environment = CliRun.environmentFor(database);
        client = EngineFixtures.client(database, new RecordingLogger());
        StreamHandle<Order> alerted = client.stream(ALERTED, Order.class);
        alertedId = alerted.register().id();
        try (Producer<Order> producer = alerted.producer().register()) {
            producer.produce(new Order(1));
        }
        AlertHandle partitions = alerted.alerts().alert("partition_count");

        register("--metric-collector-poll-rate", "200ms", "--partition-count-threshold", "1");
        try (BackgroundManager firstManager = BackgroundManager.start(client)) {
            await().atMost(WAIT).until(() -> status(partitions) == AlertStatus.ACTIVE);
            register("--metric-collector-poll-rate", "200ms", "--partition-count-threshold", "1000000");
            await().atMost(WAIT).until(() -> status(partitions) == AlertStatus.RESOLVED);
        }
        client.stream(QUIET, Order.class).register();
        client.stream(QUIET, Order.class).consumer("audit").register();
        // a running collector keeps its rate until it is claimed again: a new manager claims it at one pass an hour
        register("--metric-collector-poll-rate", "1h", "--partition-count-threshold", "1000000");
        // it keeps running: metrics_collector_progress is late only while a manager holds its lease
        manager = BackgroundManager.start(client);
        await().atMost(WAIT).until(() -> client.system().alerts().list().size() == 1);
    }

    @AfterAll
    static void stopManager() {
        manager.close();
        client.close();
    }

    private static void register(String... flags) {
        List<String> args = new ArrayList<>(FAST);
        args.addAll(List.of(flags));
        CliRun run = CliRun.run(environment, args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
    }

    private static AlertStatus status(AlertHandle alert) {
        return alert.latest().map(Alert::status).orElse(null);
    }

    @Test
    void listShowsTheNewestReportOfEachAlertOfAStream() {
        CliRun run = CliRun.run(environment, "alert", "list", "--stream", ALERTED);

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Map<String, String>> rows = TextTables.rows(run.outLines());
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).keySet()).containsExactly("NAME", "CODE", "STATUS", "OWNER", "AT", "MESSAGE");
        assertThat(rows.get(0)).containsEntry("NAME", "partition_count").containsEntry("CODE", "SQL0094")
                .containsEntry("STATUS", "resolved").containsEntry("OWNER", "stream " + ALERTED);
        assertThat(rows.get(0).get("MESSAGE")).startsWith("partition_count resolved: ");
    }

    @Test
    void listWithoutOwnerFlagsShowsTheSystemsAlerts() {
        CliRun run = CliRun.run(environment, "alert", "list");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(TextTables.rows(run.outLines())).singleElement().satisfies(row -> assertThat(row)
                .containsEntry("NAME", "metrics_collector_progress").containsEntry("CODE", "SQL0101")
                .containsEntry("STATUS", "active").containsEntry("OWNER", "system"));
    }

    @Test
    void listQuietPrintsNames() {
        CliRun run = CliRun.run(environment, "alert", "list", "--stream", ALERTED, "-q");

        assertThat(run.exitCode()).isZero();
        assertThat(run.outLines()).containsExactly("partition_count");
    }

    @Test
    void listJsonIsAnArrayOfWholeReports() {
        CliRun run = CliRun.run(environment, "alert", "list", "--stream", ALERTED, "-o", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonObject report = run.json().asJsonArray().getJsonObject(0);
        assertThat(report.keySet()).containsExactly("name", "code", "status", "severity", "owner", "message",
                "detail", "hint", "data", "at");
        assertThat(report.getString("status")).isEqualTo("resolved");
        assertThat(report.getString("severity")).isEqualTo("warn");
        JsonObject owner = report.getJsonObject("owner");
        assertThat(owner.getString("kind")).isEqualTo("stream");
        assertThat(owner.getJsonNumber("id").longValue()).isEqualTo(alertedId);
        assertThat(owner.getString("stream")).isEqualTo(ALERTED);
        assertThat(owner.isNull("group")).isTrue();
        assertThat(report.getJsonObject("data").getJsonNumber("threshold").longValue()).isEqualTo(1_000_000);
    }

    @Test
    void anOwnerWithoutReportsListsNothingAndSucceeds() {
        CliRun text = CliRun.run(environment, "alert", "list", "--stream", QUIET, "--consumer", "audit", "-q");
        CliRun json = CliRun.run(environment, "alert", "list", "--stream", QUIET, "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).isEmpty();
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.json().asJsonArray()).isEmpty();
    }

    @Test
    void latestShowsTheNewestReportFieldByField() {
        CliRun run = CliRun.run(environment, "alert", "latest", "partition_count", "--stream", ALERTED);

        assertThat(run.exitCode()).as(run.err()).isZero();
        Map<String, String> fields = TextTables.fields(run.outLines());
        assertThat(fields.keySet()).containsExactly("name", "code", "status", "severity", "owner", "message",
                "detail", "hint", "data", "at");
        assertThat(fields).containsEntry("status", "resolved").containsEntry("owner", "stream " + ALERTED);
        assertThat(fields.get("data")).startsWith("{").contains("\"threshold\":1000000");
    }

    @Test
    void latestOfTheSystemAsJson() {
        CliRun run = CliRun.run(environment, "alert", "latest", "metrics_collector_progress", "-o", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonObject report = run.json().asJsonObject();
        assertThat(report.getString("code")).isEqualTo("SQL0101");
        assertThat(report.getString("status")).isEqualTo("active");
        assertThat(report.getJsonObject("owner").getString("kind")).isEqualTo("system");
        assertThat(report.getJsonObject("owner").isNull("stream")).isTrue();
    }

    @Test
    void historyListsTheReportsNewestFirst() {
        CliRun all = CliRun.run(environment, "alert", "history", "partition_count", "--stream", ALERTED);
        CliRun one = CliRun.run(environment, "alert", "history", "partition_count", "--stream", ALERTED,
                "--limit", "1", "-o", "json");

        assertThat(all.exitCode()).as(all.err()).isZero();
        assertThat(TextTables.rows(all.outLines())).extracting(row -> row.get("STATUS"))
                .containsExactly("resolved", "active");
        assertThat(one.exitCode()).as(one.err()).isZero();
        assertThat(one.json().asJsonArray()).singleElement()
                .satisfies(report -> assertThat(report.asJsonObject().getString("status")).isEqualTo("resolved"));
    }

    @Test
    void anAlertWithoutReportsIsExit1() {
        CliRun latest = CliRun.run(environment, "alert", "latest", "worker_liveness", "--stream", QUIET);
        CliRun latestJson = CliRun.run(environment, "alert", "latest", "worker_liveness", "--stream", QUIET,
                "-o", "json");
        CliRun history = CliRun.run(environment, "alert", "history", "worker_liveness", "--stream", QUIET);
        CliRun historyJson = CliRun.run(environment, "alert", "history", "worker_liveness", "--stream", QUIET,
                "-o", "json");

        assertThat(List.of(latest, latestJson, history, historyJson)).extracting(CliRun::exitCode)
                .containsOnly(ExitCodes.ABSENT);
        assertThat(latest.out()).isEmpty();
        assertThat(latest.err().strip())
                .isEqualTo("no report of alert \"worker_liveness\" is retained for stream \"" + QUIET + "\"");
        assertThat(history.err()).isEqualTo(latest.err());
        assertThat(latestJson.json()).isEqualTo(JsonValue.NULL);
        assertThat(historyJson.json().asJsonArray()).isEmpty();
    }

    @Test
    void missingOwnersAreTheirNotFoundErrors() {
        CliRun stream = CliRun.run(environment, "alert", "list", "--stream", "cli.alerts.missing");
        CliRun group = CliRun.run(environment, "alert", "latest", "partition_count", "--stream", QUIET,
                "--consumer", "nobody");
        CliRun history = CliRun.run(environment, "alert", "history", "partition_count", "--stream",
                "cli.alerts.missing");

        assertThat(stream.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(stream.err()).startsWith("SQL0005 ");
        assertThat(group.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(group.err()).startsWith("SQL0014 ");
        assertThat(history.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(history.err()).startsWith("SQL0005 ");
    }

    @Test
    void usageErrorsAreExit2() {
        CliRun consumerAlone = CliRun.run(environment, "alert", "list", "--consumer", "audit");
        CliRun zeroLimit = CliRun.run(environment, "alert", "history", "partition_count", "--stream", ALERTED,
                "--limit", "0");
        CliRun badName = CliRun.run(environment, "alert", "list", "--stream", "Bad Name");

        assertThat(List.of(consumerAlone, zeroLimit, badName)).extracting(CliRun::exitCode)
                .containsOnly(ExitCodes.USAGE);
        assertThat(consumerAlone.err()).startsWith("usage: --consumer needs --stream");
        assertThat(zeroLimit.err()).startsWith("SQL0108 ").contains("limit");
        assertThat(badName.err()).startsWith("SQL0109 ");
    }

    @Test
    void statusEvaluatesAStreamAlertNow() {
        CliRun run = CliRun.run(environment, "alert", "status", "partition_count", "--stream", ALERTED);

        assertThat(run.exitCode()).as(run.err()).isZero();
        Map<String, String> fields = TextTables.fields(run.outLines());
        assertThat(fields.keySet()).containsExactly("state", "finding", "evaluated_at", "observed_at",
                "unhealthy_since", "observed_duration", "pending_duration", "disable_pending", "maximum_gap",
                "maximum_age", "reason");
        assertThat(fields).containsEntry("state", "healthy").containsEntry("unhealthy_since", TextTable.NONE)
                .containsEntry("pending_duration", "2m0s").containsEntry("disable_pending", "true")
                .containsEntry("maximum_gap", "2m0s").containsEntry("maximum_age", TextTable.NONE);
    }

    @Test
    void statusOfTheSystemsAlertAsJson() {
        CliRun run = CliRun.run(environment, "alert", "status", "metrics_collector_progress", "-o", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonObject snapshot = run.json().asJsonObject();
        assertThat(snapshot.getString("state")).isEqualTo("active");
        assertThat(snapshot.getString("maximum_age")).isEqualTo("1s");
        assertThat(snapshot.isNull("maximum_gap")).isTrue();
        assertThat(snapshot.getBoolean("disable_pending")).isTrue();
    }

    @Test
    void statusOfAnAlertTheOwnerKindDoesNotHaveIsAUsageError() {
        CliRun systemOnStream = CliRun.run(environment, "alert", "status", "metrics_collector_progress",
                "--stream", ALERTED);
        CliRun onGroup = CliRun.run(environment, "alert", "status", "partition_count", "--stream", QUIET,
                "--consumer", "audit");
        CliRun unknown = CliRun.run(environment, "alert", "status", "no_such_alert");

        assertThat(List.of(systemOnStream, onGroup, unknown)).extracting(CliRun::exitCode)
                .containsOnly(ExitCodes.USAGE);
        assertThat(List.of(systemOnStream, onGroup, unknown)).allSatisfy(run -> assertThat(run.err())
                .startsWith("SQL0108 ").contains("name"));
    }

    @Test
    void quietLatestAnswersByExitCodeOnly() {
        CliRun present = CliRun.run(environment, "alert", "latest", "partition_count", "--stream", ALERTED, "-q");
        CliRun absent = CliRun.run(environment, "alert", "latest", "worker_liveness", "--stream", ALERTED, "-q");

        assertThat(present.exitCode()).isZero();
        assertThat(absent.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(present.out() + absent.out()).isEmpty();
    }
}
