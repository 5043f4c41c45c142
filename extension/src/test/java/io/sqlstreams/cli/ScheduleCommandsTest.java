package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import io.sqlstreams.Schedule;
import io.sqlstreams.SchedulerConfig;
import io.sqlstreams.SchedulerHandle;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * {@code schedule …} against schedules registered in code on one stream with two consumer groups: "nightly-report"
 * produced three messages before anything else ran (the first superseded by the second, which "audit" handled;
 * the third dead-lettered there; "idle" never ran), "hourly-digest" is switched, "on-demand" is run.
 */
@PostgresTest
class ScheduleCommandsTest {
    private static final String STREAM = "cli.schedules.reports";
    private static final String NIGHTLY = "nightly-report";
    private static final String DIGEST = "hourly-digest";
    private static final String ON_DEMAND = "on-demand";

    private static TestDatabase database;
    private static Map<String, String> environment;
    private static EngineClient client;
    private static StreamHandle<Report> stream;
    private static long m1;
    private static long m2;
    private static long m3;

    @SchemaVersion(3)
    public record Report(String kind) {
    }

    @BeforeAll
    static void registerSchedules(TestDatabase testDatabase) throws SQLException {
        database = testDatabase;
        environment = CliRun.environmentFor(database);
        client = EngineFixtures.client(database, new RecordingLogger());
        stream = client.stream(STREAM, Report.class);
        stream.register(StreamConfig.builder().deliveryLogMode(DeliveryLogMode.ALL).build());
        stream.consumer("audit").register();
        stream.consumer("idle").register();
        SchedulerHandle nightly = client.scheduler(NIGHTLY);
        nightly.register(STREAM, "30 4 * * *", new Report("nightly"), SchedulerConfig.defaults()
                .withTimeout(Duration.ofMinutes(5)).withMetadata("{\"owner\": \"finance\"}"));
        client.scheduler(DIGEST).register(STREAM, "@hourly", new Report("digest"), null);
        client.scheduler(ON_DEMAND).register(STREAM, "@daily", new Report("on demand"), null);
        m1 = nightly.run(null).id();
        m2 = nightly.run(null).id();
        drainAudit(0, m2);
        m3 = nightly.run(null).id();
        drainAudit(m3, m3);
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    /** Runs the "audit" group until it committed {@code until}; message {@code poison} is dead-lettered. */
    private static void drainAudit(long poison, long until) {
        try (ConsumerSession session = stream.consumer("audit").register().start(report -> {
            if (MessageMeta.current().messageId() == poison) {
                throw Outcome.terminal("poison");
            }
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> stream.consumer("audit").inspect().committed() >= until);
        }
    }

    @Test
    void listShowsEveryScheduleOrderedByName() {
        CliRun run = CliRun.run(environment, "schedule", "list");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Map<String, String>> rows = TextTables.rows(run.outLines());
        assertThat(rows).extracting(row -> row.get("NAME")).containsExactly(DIGEST, NIGHTLY, ON_DEMAND);
        Schedule nightly = client.scheduler(NIGHTLY).get();
        assertThat(rows.get(1)).containsExactly(Map.entry("NAME", NIGHTLY), Map.entry("STREAM", STREAM),
                Map.entry("EXPRESSION", "30 4 * * *"), Map.entry("SUSPENDED", "false"),
                Map.entry("NEXT_SCHEDULED_AT", nightly.nextScheduledAt().toString()),
                Map.entry("LAST_SCHEDULED_AT", TextTable.NONE));
    }

    @Test
    void listQuietPrintsNamesAndJsonIsAnArrayOfWholeSchedules() {
        CliRun quiet = CliRun.run(environment, "schedule", "list", "-q");
        CliRun json = CliRun.run(environment, "schedule", "list", "-o", "json");

        assertThat(quiet.exitCode()).isZero();
        assertThat(quiet.outLines()).containsExactly(DIGEST, NIGHTLY, ON_DEMAND);
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonArray schedules = json.json().asJsonArray();
        assertThat(schedules).hasSize(3);
        assertNightly(schedules.getJsonObject(1));
    }

    @Test
    void anInstallationWithoutSchedulesAndASchemaWithoutOneListNothing() {
        String bare = database.extraSchema("bare");
        String installed = database.extraSchema("installed");
        assertThat(CliRun.run(environment, "migrate", "init", "--schema", installed).exitCode()).isZero();

        for (String schema : List.of(bare, installed)) {
            CliRun text = CliRun.run(environment, "schedule", "list", "--schema", schema);
            CliRun json = CliRun.run(environment, "schedule", "list", "--schema", schema, "-o", "json");

            assertThat(text.exitCode()).as(text.err()).isZero();
            assertThat(TextTables.rows(text.outLines())).isEmpty();
            assertThat(json.exitCode()).isZero();
            assertThat(json.json()).isEqualTo(JsonValue.EMPTY_JSON_ARRAY);
        }
    }

    @Test
    void getShowsTheScheduleFieldByField() {
        CliRun run = CliRun.run(environment, "schedule", "get", NIGHTLY);

        assertThat(run.exitCode()).as(run.err()).isZero();
        Schedule nightly = client.scheduler(NIGHTLY).get();
        assertThat(TextTables.fields(run.outLines())).containsExactly(
                Map.entry("name", NIGHTLY),
                Map.entry("stream", STREAM),
                Map.entry("expression", "30 4 * * *"),
                Map.entry("suspended", "false"),
                Map.entry("schema_version", "3"),
                Map.entry("payload", "{\"kind\":\"nightly\"}"),
                Map.entry("timeout", "5m0s"),
                Map.entry("concurrency", "parallel"),
                Map.entry("metadata", "{\"owner\":\"finance\"}"),
                Map.entry("next_scheduled_at", nightly.nextScheduledAt().toString()),
                Map.entry("last_scheduled_at", TextTable.NONE),
                Map.entry("created_at", nightly.createdAt().toString()),
                Map.entry("updated_at", nightly.updatedAt().toString()));
    }

    @Test
    void getJsonIsTheScheduleOrNullWithExitOne() {
        CliRun present = CliRun.run(environment, "schedule", "get", NIGHTLY, "-o", "json");
        CliRun absent = CliRun.run(environment, "schedule", "get", "weekly-missing", "-o", "json");

        assertThat(present.exitCode()).as(present.err()).isZero();
        assertNightly(present.json().asJsonObject());
        assertThat(present.json().asJsonObject()).doesNotContainKey("messages");
        assertThat(absent.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(absent.json()).isEqualTo(JsonValue.NULL);
        assertThat(absent.err()).isEmpty();
    }

    @Test
    void getOfAnAbsentScheduleSaysSoWithItsCodeAndQuietAnswersWithTheExitCode() {
        CliRun text = CliRun.run(environment, "schedule", "get", "weekly-missing");
        CliRun quietPresent = CliRun.run(environment, "schedule", "get", "-q", NIGHTLY);
        CliRun quietAbsent = CliRun.run(environment, "schedule", "get", "-q", "weekly-missing");

        assertThat(text.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(text.out()).isEmpty();
        assertThat(text.errLines()).containsExactly("SQL0013 schedule \"weekly-missing\" is not registered");
        assertThat(quietPresent.exitCode()).isZero();
        assertThat(quietAbsent.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(quietPresent.out() + quietPresent.err() + quietAbsent.out() + quietAbsent.err()).isEmpty();
    }

    @Test
    void getWithMessagesAddsTheNewestMessagesUpToTheLimit() {
        CliRun text = CliRun.run(environment, "schedule", "get", NIGHTLY, "--messages", "--limit", "2");
        CliRun json = CliRun.run(environment, "schedule", "get", NIGHTLY, "--messages", "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        List<String> lines = text.outLines();
        int blank = lines.indexOf("");
        assertThat(TextTables.fields(lines.subList(0, blank))).containsEntry("name", NIGHTLY);
        assertThat(TextTables.rows(lines.subList(blank + 1, lines.size()))).extracting(row -> row.get("ID"))
                .containsExactly(Long.toString(m3), Long.toString(m2));
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.json().asJsonObject().getJsonArray("messages").getValuesAs(JsonObject.class))
                .extracting(message -> message.getJsonNumber("id").longValue()).containsExactly(m3, m2, m1);
    }

    @Test
    void limitWithoutMessagesAndALimitBelowOneAreUsageErrors() {
        CliRun alone = CliRun.run(environment, "schedule", "get", NIGHTLY, "--limit", "2");
        CliRun zero = CliRun.run(environment, "schedule", "get", NIGHTLY, "--messages", "--limit", "0");
        CliRun zeroMessages = CliRun.run(environment, "schedule", "messages", NIGHTLY, "--limit", "0");

        assertThat(List.of(alone, zero, zeroMessages)).extracting(CliRun::exitCode).containsOnly(ExitCodes.USAGE);
        assertThat(alone.out()).isEmpty();
        assertThat(alone.errLines()).singleElement().asString().startsWith("usage: --limit needs --messages");
        assertThat(zero.errLines()).singleElement().asString()
                .isEqualTo("SQL0108 invalid configuration: --limit = 0: must be positive");
        assertThat(zeroMessages.err()).isEqualTo(zero.err());
    }

    @Test
    void statusCountsWhatEachGroupDidWithTheMessages() {
        CliRun text = CliRun.run(environment, "schedule", "status", NIGHTLY);
        CliRun json = CliRun.run(environment, "schedule", "status", NIGHTLY, "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(TextTables.rows(text.outLines())).containsExactly(
                Map.of("GROUP", "audit", "RAN", "2", "SUCCEEDED", "1", "FAILED", "1", "SUPERSEDED", "1"),
                Map.of("GROUP", "idle", "RAN", "0", "SUCCEEDED", "0", "FAILED", "0", "SUPERSEDED", "0"));
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonObject audit = json.json().asJsonArray().getJsonObject(0);
        assertThat(audit.keySet()).containsExactly("group", "ran", "succeeded", "failed", "superseded");
        assertThat(audit.getString("group")).isEqualTo("audit");
        assertThat(audit.getJsonNumber("ran").longValue()).isEqualTo(2);
        assertThat(audit.getJsonNumber("superseded").longValue()).isEqualTo(1);
    }

    @Test
    void messagesListNewestFirstWithTheOutcomeInEachGroup() {
        CliRun text = CliRun.run(environment, "schedule", "messages", NIGHTLY);
        CliRun one = CliRun.run(environment, "schedule", "messages", NIGHTLY, "--limit", "1", "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        List<Map<String, String>> rows = TextTables.rows(text.outLines());
        assertThat(rows.get(0).keySet()).containsExactly("ID", "SCHEDULED_AT", "CREATED_AT", "OUTCOMES", "NEXT_ID");
        assertThat(rows).extracting(row -> row.get("ID")).containsExactly(Long.toString(m3), Long.toString(m2),
                Long.toString(m1));
        assertThat(rows).extracting(row -> row.get("OUTCOMES")).containsExactly("audit=failed,idle=pending",
                "audit=succeeded,idle=pending", "audit=superseded,idle=pending");
        assertThat(rows).extracting(row -> row.get("NEXT_ID")).containsExactly(TextTable.NONE, Long.toString(m3),
                Long.toString(m2));
        assertThat(one.exitCode()).as(one.err()).isZero();
        JsonObject newest = one.json().asJsonArray().getJsonObject(0);
        assertThat(one.json().asJsonArray()).hasSize(1);
        assertThat(newest.keySet()).containsExactly("id", "scheduled_at", "created_at", "outcomes", "next_id",
                "next_at");
        assertThat(newest.getJsonNumber("id").longValue()).isEqualTo(m3);
        assertThat(newest.getJsonObject("outcomes")).containsOnlyKeys("audit", "idle");
        assertThat(newest.getJsonObject("outcomes").getString("audit")).isEqualTo("failed");
        assertThat(Instant.parse(newest.getString("scheduled_at")))
                .isBeforeOrEqualTo(Instant.parse(newest.getString("created_at")));
        assertThat(newest.isNull("next_id")).isTrue();
        assertThat(newest.isNull("next_at")).isTrue();
    }

    @Test
    void suspendAndUnsuspendPrintTheScheduleAndShowInGet() {
        CliRun suspend = CliRun.run(environment, "schedule", "suspend", DIGEST);
        CliRun suspendedGet = CliRun.run(environment, "schedule", "get", DIGEST, "-o", "json");
        CliRun unsuspend = CliRun.run(environment, "schedule", "unsuspend", DIGEST, "-o", "json");
        CliRun unsuspendedGet = CliRun.run(environment, "schedule", "get", DIGEST);

        assertThat(suspend.exitCode()).as(suspend.err()).isZero();
        assertThat(TextTables.fields(suspend.outLines())).containsEntry("name", DIGEST)
                .containsEntry("suspended", "true");
        assertThat(suspendedGet.json().asJsonObject().getBoolean("suspended")).isTrue();
        assertThat(unsuspend.exitCode()).as(unsuspend.err()).isZero();
        assertThat(unsuspend.json().asJsonObject().getBoolean("suspended")).isFalse();
        assertThat(unsuspend.json()).isEqualTo(CliRun.run(environment, "schedule", "get", DIGEST, "-o", "json")
                .json());
        assertThat(TextTables.fields(unsuspendedGet.outLines())).containsEntry("suspended", "false");
    }

    @Test
    void runProducesAParallelMessageByDefaultAndAnExclusiveOneOnRequest() {
        CliRun parallel = CliRun.run(environment, "schedule", "run", ON_DEMAND);
        CliRun exclusive = CliRun.run(environment, "schedule", "run", ON_DEMAND, "--concurrency", "exclusive",
                "-o", "json");

        assertThat(parallel.exitCode()).as(parallel.err()).isZero();
        Map<String, String> fields = TextTables.fields(parallel.outLines());
        assertThat(fields.keySet()).containsExactly("schedule", "id", "duplicate");
        assertThat(fields).containsEntry("schedule", ON_DEMAND).containsEntry("duplicate", "false");
        assertThat(concurrencyOf(Long.parseLong(fields.get("id")))).isEqualTo("parallel");
        assertThat(exclusive.exitCode()).as(exclusive.err()).isZero();
        JsonObject produced = exclusive.json().asJsonObject();
        assertThat(produced.getString("schedule")).isEqualTo(ON_DEMAND);
        assertThat(produced.getBoolean("duplicate")).isFalse();
        assertThat(concurrencyOf(produced.getJsonNumber("id").longValue())).isEqualTo("exclusive");
    }

    @Test
    void runRefusesOrderedAndUnknownPolicies() {
        CliRun ordered = CliRun.run(environment, "schedule", "run", ON_DEMAND, "--concurrency", "ordered");
        CliRun unknown = CliRun.run(environment, "schedule", "run", ON_DEMAND, "--concurrency", "sideways");

        assertThat(List.of(ordered, unknown)).extracting(CliRun::exitCode).containsOnly(ExitCodes.USAGE);
        assertThat(ordered.out()).isEmpty();
        assertThat(ordered.errLines()).singleElement().asString().startsWith("SQL0108 ")
                .contains("must be parallel or exclusive");
        assertThat(unknown.errLines()).singleElement().asString().startsWith("SQL0108 ").contains("--concurrency");
    }

    @Test
    void destroyWithoutYesIsRefusedWithoutATerminalAndWithJson() {
        client.scheduler("kept-report").register(STREAM, "@daily", new Report("kept"), null);

        DestroyRefusals.assertNeedsYes(environment, "kept-report", "schedule", "destroy", "kept-report");

        assertThat(client.scheduler("kept-report").get().name()).isEqualTo("kept-report");
        client.scheduler("kept-report").destroy();
    }

    @Test
    void destroyYesDeletesTheScheduleAndKeepsItsMessages() {
        client.scheduler("doomed-report").register(STREAM, "@daily", new Report("doomed"), null);
        client.scheduler("doomed-json").register(STREAM, "@daily", new Report("doomed"), null);
        long produced = client.scheduler("doomed-report").run(null).id();

        CliRun text = CliRun.run(environment, "schedule", "destroy", "doomed-report", "--yes");
        CliRun json = CliRun.run(environment, "schedule", "destroy", "-y", "doomed-json", "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.outLines()).containsExactly(
                "destroyed schedule \"doomed-report\"; its messages stay in its stream");
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.json().asJsonObject()).isEqualTo(Json.createObjectBuilder().add("schedule", "doomed-json")
                .add("destroyed", true).build());
        for (String gone : List.of("doomed-report", "doomed-json")) {
            assertThat(CliRun.run(environment, "schedule", "get", "-q", gone).exitCode()).as(gone)
                    .isEqualTo(ExitCodes.ABSENT);
        }
        assertThat(concurrencyOf(produced)).as("the message stays").isEqualTo("parallel");
    }

    @Test
    void onATerminalOnlyTheTypedNameConfirmsADestroy() {
        client.scheduler("typed-report").register(STREAM, "@daily", new Report("typed"), null);

        CliRun wrong = CliRun.typing("typed\n", environment, "schedule", "destroy", "typed-report");
        CliRun nothing = CliRun.typing("", environment, "schedule", "destroy", "typed-report");
        assertThat(client.scheduler("typed-report").get().name()).isEqualTo("typed-report");
        CliRun typed = CliRun.typing(" typed-report \n", environment, "schedule", "destroy", "typed-report");

        assertThat(List.of(wrong, nothing)).extracting(CliRun::exitCode).containsOnly(ExitCodes.DECLINED);
        assertThat(wrong.out() + nothing.out()).isEmpty();
        assertThat(wrong.err()).isEqualTo("destroy schedule \"typed-report\" (@daily on stream \"" + STREAM
                + "\")? Its messages stay. Type its name to confirm: "
                + "schedule \"typed-report\" was not destroyed: the name typed did not match\n");
        assertThat(nothing.err()).isEqualTo(wrong.err());
        assertThat(typed.exitCode()).as(typed.err()).isZero();
        assertThat(typed.outLines()).containsExactly(
                "destroyed schedule \"typed-report\"; its messages stay in its stream");
        assertThat(CliRun.run(environment, "schedule", "get", "-q", "typed-report").exitCode())
                .isEqualTo(ExitCodes.ABSENT);
    }

    @Test
    void destroyOfAnAbsentScheduleIsSql0013BeforeAnyQuestion() {
        CliRun yes = CliRun.run(environment, "schedule", "destroy", "weekly-missing", "--yes");
        CliRun asked = CliRun.typing("weekly-missing\n", environment, "schedule", "destroy", "weekly-missing");

        assertThat(List.of(yes, asked)).extracting(CliRun::exitCode).containsOnly(ExitCodes.ABSENT);
        assertThat(yes.out() + asked.out()).isEmpty();
        assertThat(yes.errLines()).containsExactly("SQL0013 schedule \"weekly-missing\" is not registered");
        assertThat(asked.err()).isEqualTo(yes.err());
    }

    @Test
    void everyVerbOfAnAbsentScheduleIsSql0013WithExitOne() {
        for (String verb : List.of("status", "messages", "suspend", "unsuspend", "run")) {
            CliRun text = CliRun.run(environment, "schedule", verb, "weekly-missing");
            CliRun json = CliRun.run(environment, "schedule", verb, "weekly-missing", "-o", "json");

            assertThat(List.of(text, json)).as(verb).extracting(CliRun::exitCode).containsOnly(ExitCodes.ABSENT);
            assertThat(text.errLines()).as(verb)
                    .containsExactly("SQL0013 schedule \"weekly-missing\" is not registered");
            assertThat(json.error().getString("code")).as(verb).isEqualTo("SQL0013");
            assertThat(json.error().getString("problem")).as(verb)
                    .isEqualTo("schedule \"weekly-missing\" is not registered");
            assertThat(text.out() + json.out()).as(verb).isEmpty();
        }
    }

    @Test
    void anInvalidNameIsAUsageErrorWithItsCode() {
        for (String verb : List.of("get", "status", "messages", "suspend", "unsuspend", "run", "destroy --yes")) {
            List<String> args = new ArrayList<>(List.of(("schedule " + verb).split(" ")));
            args.addAll(List.of("bad name!", "-o", "json"));

            CliRun run = CliRun.run(environment, args.toArray(String[]::new));

            assertThat(run.exitCode()).as(verb).isEqualTo(ExitCodes.USAGE);
            assertThat(run.out()).as(verb).isEmpty();
            assertThat(run.error().getString("code")).as(verb).isEqualTo("SQL0109");
            assertThat(run.error().getString("problem")).as(verb).startsWith("invalid schedule name \"bad name!\": ");
        }
    }

    private static void assertNightly(JsonObject schedule) {
        Schedule nightly = client.scheduler(NIGHTLY).get();
        assertThat(schedule.keySet()).containsExactly("name", "stream", "expression", "suspended", "schema_version",
                "payload", "timeout", "concurrency", "metadata", "next_scheduled_at", "last_scheduled_at",
                "created_at", "updated_at");
        assertThat(schedule.getString("name")).isEqualTo(NIGHTLY);
        assertThat(schedule.getString("stream")).isEqualTo(STREAM);
        assertThat(schedule.getBoolean("suspended")).isFalse();
        assertThat(schedule.getInt("schema_version")).isEqualTo(3);
        assertThat(schedule.getJsonObject("payload").getString("kind")).isEqualTo("nightly");
        assertThat(schedule.getString("timeout")).isEqualTo("5m0s");
        assertThat(schedule.getString("concurrency")).isEqualTo("parallel");
        assertThat(schedule.getJsonObject("metadata").getString("owner")).isEqualTo("finance");
        assertThat(Instant.parse(schedule.getString("next_scheduled_at"))).isEqualTo(nightly.nextScheduledAt());
        assertThat(schedule.isNull("last_scheduled_at")).isTrue();
        assertThat(Instant.parse(schedule.getString("created_at"))).isEqualTo(nightly.createdAt());
    }

    /** The concurrency policy message {@code id} of the stream carries, as its log stores it. */
    private static String concurrencyOf(long id) {
        String sql = "SELECT options->>'concurrency' FROM " + database.schema() + ".message_log_"
                + stream.get().orElseThrow().id() + " WHERE id = ?";
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, id);
            try (ResultSet row = statement.executeQuery()) {
                assertThat(row.next()).as("message %s in the stream", id).isTrue();
                return row.getString(1);
            }
        } catch (SQLException failed) {
            throw new IllegalStateException(failed);
        }
    }
}
