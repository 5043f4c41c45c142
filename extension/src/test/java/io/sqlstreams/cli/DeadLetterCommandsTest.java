package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.StringReader;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.Outcome;
import io.sqlstreams.PageRequest;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * {@code consumer dead …}, {@code consumer pause|resume|blocked|actions} and the pause in {@code consumer inspect},
 * against one stream of six keyed messages (message n has key {@code acct-n}, but messages 2 and 4 share
 * {@code acct-2}). Every group but "ordered" ran them with a handler that dead-letters 2 and 4 ("card declined")
 * and 5 ("card expired"), so each starts with three dead letters; the verbs that change something each get a
 * group of their own. "ordered" runs every key in order and keeps failing message 2, an hour from its retry, so
 * message 4 waits behind it.
 */
@PostgresTest
class DeadLetterCommandsTest {
    private static final String STREAM = "cli.dead.payments";
    private static final String DECLINED = "card declined: insufficient funds";
    private static final String EXPIRED = "card expired";
    /** How the group records an {@code Outcome.terminal} reason as the last error. */
    private static final String TERMINAL = "SQL0055 delivery cannot succeed: ";
    private static final String LOCKED = "ledger locked";
    private static final List<String> DEAD_GROUPS = List.of("reader", "redriven", "discarded", "prompted",
            "toggled", "audited");
    private static final String OS_USER = System.getProperty("user.name");
    /** One library log line as every command writes it: its time, its level, its code, the message. */
    private static final String LOG_LINE = "\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z (TRACE|DEBUG|INFO|WARNING|ERROR)"
            + " SQL\\d{4} .+";

    private static Map<String, String> environment;
    private static EngineClient client;
    private static StreamHandle<Numbered> payments;
    /** The id of message n at index n - 1. */
    private static List<Long> ids;

    @BeforeAll
    static void deadLetterEveryGroup(TestDatabase database) throws SQLException, InterruptedException {
        environment = CliRun.environmentFor(database);
        client = EngineFixtures.client(database, new RecordingLogger());
        payments = client.stream(STREAM, Numbered.class);
        payments.register();
        try (Producer<Numbered> producer = payments.producer().register()) {
            ids = LongStream.rangeClosed(1, 6).mapToObj(n -> producer.produce(new Numbered(n), ProduceOptions.builder()
                    .messageKey(n == 4 ? "acct-2" : "acct-" + n).build()).id()).toList();
        }
        for (String group : DEAD_GROUPS) {
            run(group, ConsumerConfig.defaults(), payment -> {
                if (payment.n() == 2 || payment.n() == 4) {
                    throw Outcome.terminal(DECLINED);
                }
                if (payment.n() == 5) {
                    throw Outcome.terminal(EXPIRED);
                }
            }, Map.of("dead", 3L));
        }
        run("ordered", ConsumerConfig.builder().concurrencyOverride(Concurrency.ORDERED)
                .exceptionInitialBackoff(Duration.ofHours(1))
                .message(MessageOptions.builder().retry(RetryPolicy.builder().maxRetries(5).build()).build())
                .build(), payment -> {
                    if (payment.n() == 2) {
                        throw new IllegalStateException(LOCKED);
                    }
                }, Map.of("ready", 1L, "deferred", 1L));
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    /** Runs {@code group} over every message until it claimed them all and its exception rows are {@code rows}. */
    private static void run(String group, ConsumerConfig config, MessageHandler<Numbered> handler,
                            Map<String, Long> rows) throws InterruptedException {
        ConsumerHandle<Numbered> handle = payments.consumer(group);
        try (ConsumerSession session = handle.register(config).start(handler, ConsumeFixtures.fastSession()
                .queueMargin(Duration.ofSeconds(30)).build())) {
            assertThat(session.awaitStarted(Duration.ofSeconds(10))).isTrue();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                ConsumerInspection state = handle.inspect();
                assertThat(List.of(state.claimed(), state.openLeases(), state.exceptions()))
                        .isEqualTo(List.of(ids.get(5), 0, rows));
            });
        }
    }

    // ---- consumer dead list ----

    @Test
    void listShowsTheDeadLettersNewestFirst() {
        CliRun run = CliRun.run(environment, "consumer", "dead", "list", STREAM, "reader");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<DeadLetter> letters = letters("reader");
        assertThat(letters).extracting(DeadLetter::messageId).containsExactly(id(5), id(4), id(2));
        assertThat(TextTables.rows(run.outLines())).containsExactly(
                letterRow(letters.get(0), "acct-5", TERMINAL + EXPIRED),
                letterRow(letters.get(1), "acct-2", TERMINAL + DECLINED),
                letterRow(letters.get(2), "acct-2", TERMINAL + DECLINED));
    }

    @Test
    void listWithPayloadAddsThemToTheTable() {
        CliRun run = CliRun.run(environment, "consumer", "dead", "list", STREAM, "reader", "--payload");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Map<String, String>> rows = TextTables.rows(run.outLines());
        assertThat(rows.get(0).keySet()).containsExactly("MESSAGE_ID", "MESSAGE_KEY", "RUNS", "DEAD_SINCE",
                "LAST_ERROR", "PAYLOAD");
        assertThat(rows).extracting(row -> row.get("PAYLOAD")).containsExactly("{\"n\":5}", "{\"n\":4}",
                "{\"n\":2}");
    }

    @Test
    void listPagesThroughJsonWithNextBeforeId() {
        CliRun first = CliRun.run(environment, "consumer", "dead", "list", STREAM, "reader", "--limit", "2",
                "-o", "json");
        CliRun second = CliRun.run(environment, "consumer", "dead", "list", STREAM, "reader", "--limit", "2",
                "--before-id", Long.toString(id(4)), "-o", "json");
        CliRun firstText = CliRun.run(environment, "consumer", "dead", "list", STREAM, "reader", "--limit", "2");

        assertThat(first.exitCode()).as(first.err()).isZero();
        JsonObject page = first.json().asJsonObject();
        assertThat(page.keySet()).containsExactly("letters", "next_before_id");
        assertThat(page.getJsonNumber("next_before_id").longValue()).isEqualTo(id(4));
        DeadLetter newest = letters("reader").get(0);
        assertThat(page.getJsonArray("letters").getJsonObject(0)).isEqualTo(Json.createObjectBuilder()
                .add("message_id", id(5))
                .add("message_key", "acct-5")
                .addNull("routing_key")
                .add("schema_version", 1)
                .add("created_at", newest.createdAt().toString())
                .add("runs", 1)
                .add("last_error", TERMINAL + EXPIRED)
                .add("dead_since", newest.deadSince().toString())
                .add("payload", Json.createObjectBuilder().add("n", 5))
                .add("headers", Json.createObjectBuilder())
                .build());
        assertThat(messageIds(page.getJsonArray("letters"))).containsExactly(id(5), id(4));
        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(messageIds(second.json().asJsonObject().getJsonArray("letters"))).containsExactly(id(2));
        assertThat(second.json().asJsonObject().isNull("next_before_id")).isTrue();
        List<String> lines = firstText.outLines();
        assertThat(lines.subList(lines.size() - 2, lines.size()))
                .containsExactly("", "next page: --before-id " + id(4));
        assertThat(TextTables.rows(lines.subList(0, lines.size() - 2))).extracting(row -> row.get("MESSAGE_ID"))
                .containsExactly(Long.toString(id(5)), Long.toString(id(4)));
    }

    @Test
    void everyFilterFlagNarrowsTheListAndTheCount() {
        Instant lastDeath = letters("reader").stream().map(DeadLetter::deadSince).max(Instant::compareTo)
                .orElseThrow();
        Map<List<String>, List<Long>> selections = Map.of(
                List.of("--key", "acct-2"), List.of(id(4), id(2)),
                List.of("--error", "EXPIRED"), List.of(id(5)),
                List.of("--from-id", Long.toString(id(3)), "--to-id", Long.toString(id(4))), List.of(id(4)),
                List.of("--from-id", Long.toString(id(4))), List.of(id(5), id(4)),
                List.of("--id", Long.toString(id(2)), "--id", Long.toString(id(5))), List.of(id(5), id(2)),
                List.of("--id", id(2) + "," + id(3)), List.of(id(2)),
                List.of("--dead-since", lastDeath.plusSeconds(1).toString()), List.of(),
                List.of("--dead-since", lastDeath.minusSeconds(60).toString(), "--error", "declined"),
                List.of(id(4), id(2)));

        selections.forEach((flags, expected) -> {
            CliRun list = CliRun.run(environment, args(List.of("consumer", "dead", "list", STREAM, "reader", "-o",
                    "json"), flags));
            CliRun count = CliRun.run(environment, args(List.of("consumer", "dead", "count", STREAM, "reader"),
                    flags));

            assertThat(list.exitCode()).as("%s: %s", flags, list.err()).isZero();
            assertThat(messageIds(list.json().asJsonObject().getJsonArray("letters"))).as("%s", flags)
                    .containsExactlyElementsOf(expected);
            assertThat(count.exitCode()).as("%s: %s", flags, count.err()).isZero();
            assertThat(count.outLines()).as("%s", flags).containsExactly(Integer.toString(expected.size()));
        });
    }

    // ---- consumer dead count, errors ----

    @Test
    void countPrintsTheNumberOrAnObject() {
        CliRun text = CliRun.run(environment, "consumer", "dead", "count", STREAM, "reader");
        CliRun json = CliRun.run(environment, "consumer", "dead", "count", STREAM, "reader", "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.outLines()).containsExactly("3");
        assertThat(json.json()).isEqualTo(Json.createObjectBuilder().add("count", 3).build());
    }

    @Test
    void errorsGroupTheDeadLettersByLastErrorLargestFirst() {
        CliRun text = CliRun.run(environment, "consumer", "dead", "errors", STREAM, "reader");
        CliRun json = CliRun.run(environment, "consumer", "dead", "errors", STREAM, "reader", "--limit", "1",
                "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        List<DeadLetter> letters = letters("reader");
        assertThat(TextTables.rows(text.outLines())).containsExactly(
                Map.of("COUNT", "2", "SAMPLE_MESSAGE_ID", Long.toString(id(4)),
                        "NEWEST_DEAD_SINCE", letters.get(1).deadSince().toString(), "LAST_ERROR", TERMINAL + DECLINED),
                Map.of("COUNT", "1", "SAMPLE_MESSAGE_ID", Long.toString(id(5)),
                        "NEWEST_DEAD_SINCE", letters.get(0).deadSince().toString(), "LAST_ERROR", TERMINAL + EXPIRED));
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.json()).isEqualTo(Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("last_error", TERMINAL + DECLINED)
                .add("count", 2)
                .add("sample_message_id", id(4))
                .add("newest_dead_since", letters.get(1).deadSince().toString())).build());
    }

    // ---- consumer dead redrive, discard ----

    @Test
    void dryRunPrintsTheCountAndChangesNothing() {
        CliRun redrive = CliRun.run(environment, "consumer", "dead", "redrive", STREAM, "reader", "--dry-run");
        CliRun discard = CliRun.run(environment, "consumer", "dead", "discard", STREAM, "reader", "--key", "acct-2",
                "--dry-run", "-o", "json");

        assertThat(redrive.exitCode()).as(redrive.err()).isZero();
        assertThat(redrive.outLines()).containsExactly("dry run: 3 dead letter(s) of consumer group \"reader\" on"
                + " stream \"" + STREAM + "\" would be redriven; nothing changed");
        assertThat(discard.exitCode()).as(discard.err()).isZero();
        assertThat(discard.json()).isEqualTo(Json.createObjectBuilder().add("dry_run", true).add("kind", "discard")
                .add("count", 2).build());
        assertThat(deadCount("reader")).isEqualTo(3);
        assertThat(payments.consumer("reader").actions(10)).isEmpty();
    }

    @Test
    void redriveYesMakesTheSelectedDeadLettersReadyAndRecordsWhoDidIt() {
        CliRun byKey = CliRun.run(environment, "consumer", "dead", "redrive", STREAM, "redriven", "--key", "acct-2",
                "--actor", "alice", "--yes");
        assertThat(deadCount("redriven")).isEqualTo(1);
        CliRun rest = CliRun.run(environment, "consumer", "dead", "redrive", STREAM, "redriven", "-y", "-o", "json");
        CliRun again = CliRun.run(environment, "consumer", "dead", "redrive", STREAM, "redriven", "-y", "-o", "json");

        assertThat(byKey.exitCode()).as(byKey.err()).isZero();
        List<OperatorAction> actions = payments.consumer("redriven").actions(10);
        assertThat(actions).extracting(OperatorAction::affected).containsExactly(0L, 1L, 2L);
        OperatorAction first = actions.get(2);
        assertThat(TextTables.fields(byKey.outLines())).containsExactly(
                Map.entry("id", Long.toString(first.id())),
                Map.entry("kind", "redrive"),
                Map.entry("actor", "alice"),
                Map.entry("at", first.at().toString()),
                Map.entry("affected", "2"),
                Map.entry("filter", "message_key=acct-2"));
        assertThat(rest.exitCode()).as(rest.err()).isZero();
        assertThat(rest.json()).isEqualTo(actionJson(actions.get(1)));
        assertThat(rest.json().asJsonObject().getString("actor")).isEqualTo(OS_USER);
        assertThat(rest.json().asJsonObject().getJsonObject("filter")).isEqualTo(JsonValue.EMPTY_JSON_OBJECT);
        assertThat(again.json().asJsonObject().getInt("affected")).as("nothing is dead any more").isZero();
        assertThat(payments.consumer("redriven").inspect().exceptions()).isEqualTo(Map.of("ready", 3L));
    }

    @Test
    void discardYesResolvesTheSelectedDeadLettersWithoutRunningThem() {
        CliRun run = CliRun.run(environment, "consumer", "dead", "discard", STREAM, "discarded", "--error", "expired",
                "--yes", "-o", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonObject action = run.json().asJsonObject();
        assertThat(action.keySet()).containsExactly("id", "kind", "actor", "at", "affected", "filter");
        assertThat(action.getString("kind")).isEqualTo("discard");
        assertThat(action.getInt("affected")).isEqualTo(1);
        assertThat(action.getJsonObject("filter")).isEqualTo(Json.createObjectBuilder()
                .add("error_contains", "expired").build());
        assertThat(deadCount("discarded")).isEqualTo(2);
        JsonObject exceptions = CliRun.run(environment, "consumer", "inspect", STREAM, "discarded", "-o", "json")
                .json().asJsonObject().getJsonObject("exceptions");
        assertThat(exceptions.getInt("dead")).isEqualTo(2);
        assertThat(exceptions.getInt("discarded")).isEqualTo(1);
    }

    @Test
    void onATerminalOnlyYesConfirmsAndTheQuestionShowsTheCount() {
        String question = " dead letter(s) of consumer group \"prompted\" on stream \"" + STREAM + "\"? Type yes to"
                + " confirm: ";

        CliRun no = CliRun.typing("no\n", environment, "consumer", "dead", "redrive", STREAM, "prompted");
        CliRun nothing = CliRun.typing("", environment, "consumer", "dead", "discard", STREAM, "prompted", "--key",
                "acct-2");
        assertThat(deadCount("prompted")).isEqualTo(3);
        CliRun yes = CliRun.typing(" yes \n", environment, "consumer", "dead", "discard", STREAM, "prompted");
        CliRun empty = CliRun.typing("yes\n", environment, "consumer", "dead", "redrive", STREAM, "prompted");

        assertThat(List.of(no, nothing)).extracting(CliRun::exitCode).containsOnly(ExitCodes.DECLINED);
        assertThat(no.out() + nothing.out()).isEmpty();
        assertThat(no.err()).isEqualTo("redrive 3" + question + "the dead letters of consumer group \"prompted\""
                + " on stream \"" + STREAM + "\" were not redriven: yes was not typed\n");
        assertThat(nothing.err()).isEqualTo("discard 2" + question + "the dead letters of consumer group"
                + " \"prompted\" on stream \"" + STREAM + "\" were not discarded: yes was not typed\n");
        assertThat(yes.exitCode()).as(yes.err()).isZero();
        assertThat(yes.err()).as("the question, then the library's line (after the typed answer on a terminal)")
                .startsWith("discard 3" + question).endsWith("\n");
        assertThat(yes.err().substring(("discard 3" + question).length()).strip()).matches(LOG_LINE)
                .contains(" INFO SQL0149 ");
        assertThat(TextTables.fields(yes.outLines())).containsEntry("kind", "discard").containsEntry("affected", "3")
                .containsEntry("actor", OS_USER).containsEntry("filter", TextTable.NONE);
        assertThat(deadCount("prompted")).isZero();
        assertThat(empty.exitCode()).as(empty.err()).isZero();
        assertThat(empty.err()).as("nothing to ask about").isEmpty();
        assertThat(empty.outLines()).containsExactly("no dead letter of consumer group \"prompted\" on stream \""
                + STREAM + "\" matches: nothing to redrive");
        assertThat(payments.consumer("prompted").actions(10)).hasSize(1);
    }

    @Test
    void withoutYesARunWithoutATerminalOrWithJsonIsRefusedBeforeAnythingIsRead() {
        CliRun noTerminal = CliRun.run(environment, "consumer", "dead", "redrive", STREAM, "reader");
        CliRun json = CliRun.typing("yes\n", environment, "consumer", "dead", "discard", STREAM, "reader", "-o",
                "json");
        CliRun absent = CliRun.run(environment, "consumer", "dead", "discard", STREAM, "refunds");

        assertThat(List.of(noTerminal, json, absent)).extracting(CliRun::exitCode).containsOnly(ExitCodes.USAGE);
        assertThat(noTerminal.out() + json.out() + absent.out()).isEmpty();
        assertThat(noTerminal.errLines()).singleElement().asString()
                .startsWith("usage: no terminal to confirm on: pass --yes to redrive without asking");
        assertThat(json.error().getString("code")).isEqualTo("usage");
        assertThat(json.error().getString("problem")).startsWith("--output json needs --yes");
        assertThat(absent.errLines()).singleElement().asString()
                .startsWith("usage: no terminal to confirm on: pass --yes to discard without asking");
        assertThat(deadCount("reader")).isEqualTo(3);
    }

    // ---- consumer pause, resume, inspect ----

    @Test
    void pauseAndResumeToggleOnceAndSayWhenThereIsNothingToDo() {
        CliRun pause = CliRun.run(environment, "consumer", "pause", STREAM, "toggled", "--actor", "alice");
        CliRun pausedAgain = CliRun.run(environment, "consumer", "pause", STREAM, "toggled");
        CliRun pausedAgainJson = CliRun.run(environment, "consumer", "pause", STREAM, "toggled", "-o", "json");
        CliRun pausedInspect = CliRun.run(environment, "consumer", "inspect", STREAM, "toggled");
        CliRun pausedInspectJson = CliRun.run(environment, "consumer", "inspect", STREAM, "toggled", "-o", "json");
        OperatorAction pauseAction = payments.consumer("toggled").paused().orElseThrow();
        CliRun resume = CliRun.run(environment, "consumer", "resume", STREAM, "toggled", "-o", "json");
        CliRun resumedAgain = CliRun.run(environment, "consumer", "resume", STREAM, "toggled");
        CliRun resumedAgainJson = CliRun.run(environment, "consumer", "resume", STREAM, "toggled", "-o", "json");
        CliRun resumedInspect = CliRun.run(environment, "consumer", "inspect", STREAM, "toggled", "-o", "json");

        assertThat(pause.exitCode()).as(pause.err()).isZero();
        assertThat(pause.errLines()).as("the library's lines on the run's stderr, one line each as manager run"
                + " writes them: time, level, then the line code first").isNotEmpty()
                .allSatisfy(line -> assertThat(line).matches(LOG_LINE))
                .anySatisfy(line -> assertThat(line).contains(" INFO SQL0150 "));
        assertThat(TextTables.fields(pause.outLines())).containsExactly(
                Map.entry("id", Long.toString(pauseAction.id())),
                Map.entry("kind", "pause"),
                Map.entry("actor", "alice"),
                Map.entry("at", pauseAction.at().toString()),
                Map.entry("affected", "0"),
                Map.entry("filter", TextTable.NONE));
        assertThat(List.of(pausedAgain, pausedAgainJson, resumedAgain, resumedAgainJson))
                .extracting(CliRun::exitCode).containsOnly(ExitCodes.OK);
        assertThat(pausedAgain.outLines()).containsExactly("consumer group \"toggled\" on stream \"" + STREAM
                + "\" was already paused: nothing recorded");
        assertThat(pausedAgainJson.json()).isEqualTo(Json.createObjectBuilder().add("changed", false)
                .add("paused", true).addNull("action").build());
        List<String> inspectLines = pausedInspect.outLines();
        int pauseSection = inspectLines.indexOf("PAUSE");
        assertThat(TextTables.fields(inspectLines.subList(pauseSection + 1, inspectLines.size()))).containsExactly(
                Map.entry("paused", "true"), Map.entry("actor", "alice"),
                Map.entry("since", pauseAction.at().toString()), Map.entry("action_id", Long.toString(pauseAction.id())));
        assertThat(pausedInspectJson.json().asJsonObject().getJsonObject("pause")).isEqualTo(Json.createObjectBuilder()
                .add("paused", true).add("actor", "alice").add("since", pauseAction.at().toString())
                .add("action_id", pauseAction.id()).build());
        assertThat(resume.exitCode()).as(resume.err()).isZero();
        OperatorAction resumeAction = payments.consumer("toggled").actions(1).get(0);
        assertThat(resume.json()).isEqualTo(Json.createObjectBuilder().add("changed", true).add("paused", false)
                .add("action", actionJson(resumeAction)).build());
        assertThat(resumeAction.kind()).isEqualTo(OperatorAction.Kind.RESUME);
        assertThat(resumeAction.actor()).isEqualTo(OS_USER);
        assertThat(resumedAgain.outLines()).containsExactly("consumer group \"toggled\" on stream \"" + STREAM
                + "\" was not paused: nothing recorded");
        assertThat(resumedAgainJson.json()).isEqualTo(Json.createObjectBuilder().add("changed", false)
                .add("paused", false).addNull("action").build());
        assertThat(resumedInspect.json().asJsonObject().getJsonObject("pause")).isEqualTo(Json.createObjectBuilder()
                .add("paused", false).addNull("actor").addNull("since").addNull("action_id").build());
        assertThat(payments.consumer("toggled").actions(10)).extracting(OperatorAction::kind)
                .containsExactly(OperatorAction.Kind.RESUME, OperatorAction.Kind.PAUSE);
    }

    // ---- consumer actions, blocked ----

    @Test
    void actionsListTheAuditTrailNewestFirst() {
        CliRun.run(environment, "consumer", "dead", "redrive", STREAM, "audited", "--id", Long.toString(id(2)),
                "--actor", "alice", "--yes");
        CliRun.run(environment, "consumer", "pause", STREAM, "audited", "--actor", "bob");
        List<OperatorAction> actions = payments.consumer("audited").actions(10);

        CliRun text = CliRun.run(environment, "consumer", "actions", STREAM, "audited");
        CliRun json = CliRun.run(environment, "consumer", "actions", STREAM, "audited", "-o", "json");
        CliRun newest = CliRun.run(environment, "consumer", "actions", STREAM, "audited", "--limit", "1", "-o",
                "json");
        CliRun none = CliRun.run(environment, "consumer", "actions", STREAM, "reader", "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(actions).extracting(OperatorAction::kind)
                .containsExactly(OperatorAction.Kind.PAUSE, OperatorAction.Kind.REDRIVE);
        assertThat(TextTables.rows(text.outLines())).containsExactly(
                Map.of("ID", Long.toString(actions.get(0).id()), "KIND", "pause", "ACTOR", "bob",
                        "AT", actions.get(0).at().toString(), "AFFECTED", "0", "FILTER", TextTable.NONE),
                Map.of("ID", Long.toString(actions.get(1).id()), "KIND", "redrive", "ACTOR", "alice",
                        "AT", actions.get(1).at().toString(), "AFFECTED", "1",
                        "FILTER", "message_ids=[" + id(2) + "]"));
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.json()).isEqualTo(Json.createArrayBuilder().add(actionJson(actions.get(0)))
                .add(actionJson(actions.get(1))).build());
        assertThat(newest.json()).isEqualTo(Json.createArrayBuilder().add(actionJson(actions.get(0))).build());
        assertThat(none.exitCode()).as(none.err()).isZero();
        assertThat(none.json()).isEqualTo(JsonValue.EMPTY_JSON_ARRAY);
    }

    @Test
    void blockedListsTheOrderedKeysThatWaitBehindAnUnresolvedMessage() {
        CliRun text = CliRun.run(environment, "consumer", "blocked", STREAM, "ordered");
        CliRun json = CliRun.run(environment, "consumer", "blocked", STREAM, "ordered", "-o", "json");
        CliRun none = CliRun.run(environment, "consumer", "blocked", STREAM, "reader", "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        JsonObject blocked = json.json().asJsonArray().getJsonObject(0);
        assertThat(json.json().asJsonArray()).hasSize(1);
        assertThat(blocked.keySet()).containsExactly("message_key", "waiting", "blocking_id", "blocking_status",
                "blocking_runs", "blocking_run_after", "blocking_error");
        assertThat(blocked.getString("message_key")).isEqualTo("acct-2");
        assertThat(blocked.getInt("waiting")).isEqualTo(1);
        assertThat(blocked.getJsonNumber("blocking_id").longValue()).isEqualTo(id(2));
        assertThat(blocked.getString("blocking_status")).isEqualTo("ready");
        assertThat(blocked.getInt("blocking_runs")).isEqualTo(1);
        assertThat(blocked.getString("blocking_error")).startsWith("java.lang.IllegalStateException: " + LOCKED + "\n")
                .as("with its stack trace").contains(getClass().getName());
        assertThat(Instant.parse(blocked.getString("blocking_run_after"))).isAfter(Instant.now().plusSeconds(3000));
        assertThat(TextTables.rows(text.outLines())).containsExactly(Map.of(
                "MESSAGE_KEY", "acct-2", "WAITING", "1", "BLOCKING_ID", Long.toString(id(2)),
                "BLOCKING_STATUS", "ready", "BLOCKING_RUNS", "1",
                "BLOCKING_RUN_AFTER", blocked.getString("blocking_run_after"),
                "BLOCKING_ERROR", "java.lang.IllegalStateException: " + LOCKED + " …"));
        assertThat(none.exitCode()).as(none.err()).isZero();
        assertThat(none.json()).as("a dead message blocks nothing").isEqualTo(JsonValue.EMPTY_JSON_ARRAY);
    }

    // ---- bad input, absent names ----

    @ParameterizedTest
    @ValueSource(strings = {
            "dead list --limit 0",
            "dead list --limit 1001",
            "dead list --before-id 0",
            "dead count --from-id 5 --to-id 3",
            "dead errors --limit 0",
            "dead list --id 0",
            "dead redrive --from-id 5 --to-id 3 --yes",
            "dead discard --id 0 --yes",
            "dead redrive --from-id 5 --to-id 3 --dry-run",
            "blocked --limit 0",
            "actions --limit 1001"})
    void aMalformedFilterOrLimitIsSql0152AndChangesNothing(String verb) {
        CliRun run = CliRun.run(environment, args(List.of("consumer"), List.of(verb.split(" ")), STREAM, "reader"));

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().startsWith("SQL0152 ");
        assertThat(deadCount("reader")).isEqualTo(3);
    }

    @Test
    void aMalformedFilterIsReportedBeforeAnyQuestion() {
        CliRun run = CliRun.typing("yes\n", environment, "consumer", "dead", "redrive", STREAM, "reader",
                "--from-id", "5", "--to-id", "3");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().startsWith("SQL0152 ").contains("5..3");
        assertThat(deadCount("reader")).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dead list", "dead count", "dead redrive --yes", "dead discard --dry-run"})
    void aDeadSinceThatIsNoInstantIsSql0108NamingTheFlag(String verb) {
        CliRun run = CliRun.run(environment, args(List.of("consumer"), List.of(verb.split(" ")), STREAM, "reader",
                "--dead-since", "yesterday"));

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).containsExactly("SQL0108 invalid configuration: --dead-since = yesterday: must be"
                + " an ISO-8601 instant such as 2026-12-03T17:00:00Z");
        assertThat(deadCount("reader")).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dead list", "dead count", "dead errors", "dead redrive --yes", "dead discard --yes",
            "dead redrive --dry-run", "pause", "resume", "blocked", "actions"})
    void aVerbOnAnAbsentGroupOrStreamFailsWithItsCode(String verb) {
        CliRun group = CliRun.run(environment, args(List.of("consumer"), List.of(verb.split(" ")), STREAM, "refunds"));
        CliRun stream = CliRun.run(environment, args(List.of("consumer"), List.of(verb.split(" ")), "orders.deleted",
                "refunds", "-o", "json"));

        assertThat(List.of(group, stream)).extracting(CliRun::exitCode).containsOnly(ExitCodes.ABSENT);
        assertThat(group.out() + stream.out()).isEmpty();
        assertThat(group.errLines()).singleElement().asString().startsWith("SQL0014 ").contains("refunds");
        assertThat(stream.error().getString("code")).isEqualTo("SQL0005");
        assertThat(stream.error().getString("problem")).contains("orders.deleted");
    }

    private static long id(int n) {
        return ids.get(n - 1);
    }

    private static List<DeadLetter> letters(String group) {
        return payments.consumer(group).deadLetters().list(DeadLetterFilter.all(), PageRequest.first(50)).letters();
    }

    private static long deadCount(String group) {
        return payments.consumer(group).deadLetters().count(DeadLetterFilter.all());
    }

    private static Map<String, String> letterRow(DeadLetter letter, String key, String error) {
        return Map.of("MESSAGE_ID", Long.toString(letter.messageId()), "MESSAGE_KEY", key, "RUNS", "1",
                "DEAD_SINCE", letter.deadSince().toString(), "LAST_ERROR", error);
    }

    private static JsonObject actionJson(OperatorAction action) {
        return Json.createObjectBuilder()
                .add("id", action.id())
                .add("kind", action.kind().wireName())
                .add("actor", action.actor())
                .add("at", action.at().toString())
                .add("affected", action.affected())
                .add("filter", Json.createReader(new StringReader(action.filterJson())).readObject())
                .build();
    }

    private static List<Long> messageIds(JsonArray letters) {
        return letters.getValuesAs(JsonObject.class).stream()
                .map(letter -> letter.getJsonNumber("message_id").longValue()).toList();
    }

    /** {@code verb} between {@code prefix} and {@code rest}, as one argument vector. */
    private static String[] args(List<String> prefix, List<String> verb, String... rest) {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(verb);
        all.addAll(Arrays.asList(rest));
        return all.toArray(String[]::new);
    }
}
