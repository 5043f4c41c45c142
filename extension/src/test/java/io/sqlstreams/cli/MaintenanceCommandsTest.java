package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.WorkerStatus;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.worker.WorkerInstance;
import io.sqlstreams.engine.worker.WorkerRig;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** {@code stream janitor|vacuum status|suspend|unsuspend <stream>}, each test on a stream of its own. */
@PostgresTest
class MaintenanceCommandsTest {
    /** A Go duration of 90 s and a little: the statement runs within a second of the update that aged the row. */
    private static final String NINETY_SECONDS_AND_A_LITTLE = "1m3[01](\\.\\d+)?s";

    private static Map<String, String> environment;
    private static EngineClient client;
    private static Sql sql;

    @BeforeAll
    static void connect(TestDatabase database) throws SQLException {
        client = EngineFixtures.client(database, new RecordingLogger());
        sql = new Sql(database);
        environment = CliRun.environmentFor(database);
    }

    /** Registers {@code stream} with workers that were created 90 seconds ago; its id. */
    private static long registerAged(String stream) throws SQLException {
        long id = client.stream(stream, Object.class).register().id();
        sql.update("UPDATE {s}.worker_config SET created_at = now() - interval '90 seconds' WHERE stream_id = ?", id);
        return id;
    }

    @Test
    void statusShowsTheWorkerFieldByField() throws SQLException {
        registerAged("orders.status");

        CliRun janitor = CliRun.run(environment, "stream", "janitor", "status", "orders.status");
        CliRun vacuum = CliRun.run(environment, "stream", "vacuum", "status", "orders.status");

        assertThat(janitor.exitCode()).isZero();
        assertThat(janitor.err()).isEmpty();
        Map<String, String> fields = TextTables.fields(janitor.outLines());
        assertThat(fields.keySet()).containsExactly("stream", "worker", "status", "target_instances",
                "live_instances", "attempts", "unclaimed_for");
        assertThat(fields).containsEntry("stream", "orders.status").containsEntry("worker", "stream_janitor")
                .containsEntry("status", "unclaimed").containsEntry("target_instances", "1")
                .containsEntry("live_instances", "0").containsEntry("attempts", "0");
        assertThat(fields.get("unclaimed_for")).matches(NINETY_SECONDS_AND_A_LITTLE);
        assertThat(vacuum.exitCode()).isZero();
        assertThat(TextTables.fields(vacuum.outLines())).containsEntry("worker", "stream_vacuum")
                .containsEntry("status", "suspended").containsEntry("target_instances", "0");
    }

    @Test
    void suspendAndUnsuspendPrintTheWorkerAfterTheChangeAsJson() throws SQLException {
        registerAged("orders.switch");

        CliRun suspended = CliRun.run(environment, "stream", "janitor", "suspend", "orders.switch", "-o", "json");

        assertThat(suspended.exitCode()).isZero();
        JsonObject document = suspended.json().asJsonObject();
        assertThat(document.keySet()).containsExactly("stream", "worker", "status", "target_instances",
                "live_instances", "attempts", "unclaimed_for");
        assertThat(document).containsEntry("stream", Json.createValue("orders.switch"))
                .containsEntry("worker", Json.createValue("stream_janitor"))
                .containsEntry("status", Json.createValue("suspended"))
                .containsEntry("target_instances", Json.createValue(0))
                .containsEntry("live_instances", Json.createValue(0))
                .containsEntry("attempts", Json.createValue(0));
        assertThat(document.getString("unclaimed_for")).matches(NINETY_SECONDS_AND_A_LITTLE);
        assertThat(client.stream("orders.switch", Object.class).janitor().status().status())
                .isEqualTo(WorkerStatus.SUSPENDED);

        CliRun unsuspended = CliRun.run(environment, "stream", "janitor", "unsuspend", "orders.switch", "-o", "json");
        CliRun vacuum = CliRun.run(environment, "stream", "vacuum", "unsuspend", "orders.switch");

        assertThat(unsuspended.exitCode()).isZero();
        assertThat(unsuspended.json().asJsonObject()).containsEntry("status", Json.createValue("unclaimed"))
                .containsEntry("target_instances", Json.createValue(1));
        assertThat(vacuum.exitCode()).isZero();
        assertThat(TextTables.fields(vacuum.outLines())).containsEntry("status", "unclaimed")
                .containsEntry("target_instances", "1");
        assertThat(client.stream("orders.switch", Object.class).vacuum().status().targetInstances()).isEqualTo(1);
    }

    @Test
    void aClaimedWorkerHasNoUnclaimedFor(TestDatabase database) throws SQLException {
        long streamId = client.stream("orders.claimed", Object.class).register().id();
        long janitorId = ((Number) sql.value("SELECT id FROM {s}.worker_config WHERE stream_id = ?"
                + " AND name = 'stream_janitor'", streamId)).longValue();
        WorkerInstance.claim(new WorkerRig(database).engine, janitorId, "the test's janitor", WorkerRig.TTL)
                .orElseThrow().recordAttempts(2);

        CliRun text = CliRun.run(environment, "stream", "janitor", "status", "orders.claimed");
        CliRun json = CliRun.run(environment, "stream", "janitor", "status", "orders.claimed", "-o", "json");

        assertThat(TextTables.fields(text.outLines())).containsEntry("status", "failing")
                .containsEntry("live_instances", "1").containsEntry("attempts", "2")
                .containsEntry("unclaimed_for", TextTable.NONE);
        assertThat(json.json().asJsonObject()).containsEntry("status", Json.createValue("failing"))
                .containsEntry("unclaimed_for", JsonValue.NULL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"stream janitor status orders.missing", "stream janitor suspend orders.missing",
            "stream vacuum unsuspend orders.missing"})
    void anUnregisteredStreamExitsOneWithSql0005(String line) {
        String[] args = line.split(" ");

        CliRun run = CliRun.run(environment, args);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).containsExactly("SQL0005 stream \"orders.missing\" is not registered");
    }

    @Test
    void anUnregisteredStreamAsJsonIsAnErrorDocumentWithSql0005() {
        CliRun run = CliRun.run(environment, "stream", "vacuum", "status", "orders.missing", "-o", "json");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.out()).isEmpty();
        assertThat(run.error().getString("code")).isEqualTo("SQL0005");
        assertThat(run.error().getString("problem")).isEqualTo("stream \"orders.missing\" is not registered");
    }

    @Test
    void aStreamWithoutTheWorkerRowExitsOneWithSql0106() throws SQLException {
        long streamId = client.stream("orders.lost", Object.class).register().id();
        sql.update("DELETE FROM {s}.worker_config WHERE stream_id = ? AND name = 'stream_vacuum'", streamId);

        CliRun run = CliRun.run(environment, "stream", "vacuum", "suspend", "orders.lost");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.errLines()).singleElement().asString()
                .startsWith("SQL0106 worker stream_vacuum of stream \"orders.lost\" has no worker row");
    }

    @Test
    void aBadNameOrAnUnknownVerbIsAUsageError() {
        CliRun badName = CliRun.run(environment, "stream", "janitor", "status", "Bad Name");
        CliRun unknownVerb = CliRun.run(environment, "stream", "janitor", "restart", "orders.status");
        CliRun missingStream = CliRun.run(environment, "stream", "vacuum", "suspend");

        assertThat(badName.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badName.errLines()).singleElement().asString()
                .startsWith("SQL0109 invalid stream name \"Bad Name\": ");
        assertThat(unknownVerb.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknownVerb.errLines()).singleElement().asString().startsWith("usage: ");
        assertThat(missingStream.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missingStream.errLines()).singleElement().asString()
                .startsWith("usage: Missing required parameter");
    }
}
