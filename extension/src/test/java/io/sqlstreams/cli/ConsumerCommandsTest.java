package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.Consumer;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Outcome;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
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
 * {@code consumer list|get|worker list|inspect} against a stream with two groups: {@code charge-cards}, declared
 * and run by a session that dead-letters message 2 and leaves message 3 waiting an hour to retry (so its committed
 * cursor stays at 2), and {@code audit}, registered with the defaults and never run.
 */
@PostgresTest
class ConsumerCommandsTest {
    private static final String STREAM = "payments.requested";
    private static final ConsumerConfig CHARGE_CARDS_DECLARATION = ConsumerConfig.builder()
            .message(MessageOptions.builder().timeout(Duration.ofSeconds(10))
                    .retry(RetryPolicy.builder().maxRetries(5).build()).build())
            .exceptionInitialBackoff(Duration.ofHours(1))
            .build();

    /** Room in the range lease for the queued messages behind a running one, each allowed 10 s. */
    private static final Duration QUEUE_MARGIN_FOR_TEN_SECOND_HANDLERS = Duration.ofSeconds(30);

    private static Map<String, String> environment;
    private static Consumer chargeCards;
    private static Consumer audit;

    @BeforeAll
    static void registerAndRunGroups(TestDatabase database) throws SQLException, InterruptedException {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        client.stream("orders.created", Numbered.class).register();
        StreamHandle<Numbered> payments = client.stream(STREAM, Numbered.class);
        payments.register();
        ConsumerHandle<Numbered> chargeCardsHandle = payments.consumer("charge-cards");
        ConsumerHandle<Numbered> auditHandle = payments.consumer("audit");
        auditHandle.register();
        ConsumeFixtures.produceNumbered(payments, 3);
        try (ConsumerSession session = chargeCardsHandle.register(CHARGE_CARDS_DECLARATION).start(payment -> {
            if (payment.n() == 2) {
                throw Outcome.terminal("card declined for good");
            }
            if (payment.n() == 3) {
                throw new IllegalStateException("card processor busy");
            }
        }, ConsumeFixtures.fastSession().queueMargin(QUEUE_MARGIN_FOR_TEN_SECOND_HANDLERS).build())) {
            assertThat(session.awaitStarted(Duration.ofSeconds(10))).isTrue();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                ConsumerInspection state = chargeCardsHandle.inspect();
                assertThat(List.of(state.committed(), state.openLeases(), state.exceptions()))
                        .isEqualTo(List.of(2L, 0, Map.of("dead", 1L, "ready", 1L)));
            });
        }
        chargeCards = chargeCardsHandle.get().orElseThrow();
        audit = auditHandle.get().orElseThrow();
        environment = CliRun.environmentFor(database);
    }

    // ---- consumer list ----

    @Test
    void listShowsTheStreamsGroupsOrderedByName() {
        CliRun run = CliRun.run(environment, "consumer", "list", STREAM);

        assertThat(run.exitCode()).isZero();
        assertThat(TextTables.rows(run.outLines())).containsExactly(
                Map.of("NAME", "audit", "ID", Long.toString(audit.id()), "CREATED_AT", audit.createdAt().toString(),
                        "UPDATED_AT", audit.updatedAt().toString()),
                Map.of("NAME", "charge-cards", "ID", Long.toString(chargeCards.id()),
                        "CREATED_AT", chargeCards.createdAt().toString(),
                        "UPDATED_AT", chargeCards.updatedAt().toString()));
    }

    @Test
    void listQuietAndJson() {
        CliRun quiet = CliRun.run(environment, "consumer", "list", STREAM, "-q");
        CliRun json = CliRun.run(environment, "consumer", "list", STREAM, "-o", "json");

        assertThat(quiet.outLines()).containsExactly("audit", "charge-cards");
        assertThat(json.exitCode()).isZero();
        JsonArray rows = json.json().asJsonArray();
        assertThat(rows).hasSize(2);
        assertThat(rows.getJsonObject(1)).isEqualTo(Json.createObjectBuilder()
                .add("id", chargeCards.id())
                .add("stream", STREAM)
                .add("name", "charge-cards")
                .add("created_at", chargeCards.createdAt().toString())
                .add("updated_at", chargeCards.updatedAt().toString())
                .build());
    }

    @Test
    void listOfAStreamWithoutGroupsIsEmptyAndOfAnAbsentStreamFails() {
        CliRun empty = CliRun.run(environment, "consumer", "list", "orders.created", "-o", "json");
        CliRun absent = CliRun.run(environment, "consumer", "list", "orders.deleted");

        assertThat(empty.exitCode()).isZero();
        assertThat(empty.json()).isEqualTo(JsonValue.EMPTY_JSON_ARRAY);
        assertThat(absent.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(absent.out()).isEmpty();
        assertThat(absent.errLines()).singleElement().asString().startsWith("SQL0005 ").contains("orders.deleted");
    }

    // ---- consumer get ----

    @Test
    void getShowsTheGroupsRow() {
        CliRun run = CliRun.run(environment, "consumer", "get", STREAM, "charge-cards");

        assertThat(run.exitCode()).isZero();
        assertThat(TextTables.fields(run.outLines())).containsExactly(
                Map.entry("id", Long.toString(chargeCards.id())),
                Map.entry("stream", STREAM),
                Map.entry("name", "charge-cards"),
                Map.entry("created_at", chargeCards.createdAt().toString()),
                Map.entry("updated_at", chargeCards.updatedAt().toString()));
    }

    @Test
    void getOfAnAbsentGroupExitsOneInEveryForm() {
        CliRun text = CliRun.run(environment, "consumer", "get", STREAM, "refunds");
        CliRun json = CliRun.run(environment, "consumer", "get", STREAM, "refunds", "-o", "json");
        CliRun quiet = CliRun.run(environment, "consumer", "get", "orders.deleted", "refunds", "-q");

        assertThat(text.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(text.out()).isEmpty();
        assertThat(text.errLines()).containsExactly(
                "SQL0014 consumer group \"refunds\" is not registered on stream \"payments.requested\"");
        assertThat(json.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(json.json()).isEqualTo(JsonValue.NULL);
        assertThat(quiet.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(quiet.out() + quiet.err()).isEmpty();
    }

    @Test
    void getQuietAndJsonOfAPresentGroup() {
        CliRun quiet = CliRun.run(environment, "consumer", "get", STREAM, "audit", "--quiet");
        CliRun json = CliRun.run(environment, "consumer", "get", STREAM, "audit", "--output", "json");
        CliRun both = CliRun.run(environment, "consumer", "get", STREAM, "audit", "--quiet", "--output", "json");

        assertThat(quiet.exitCode()).isZero();
        assertThat(quiet.out() + quiet.err()).isEmpty();
        assertThat(json.exitCode()).isZero();
        assertThat(json.json().asJsonObject().getJsonNumber("id").longValue()).isEqualTo(audit.id());
        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.out()).isEmpty();
    }

    // ---- consumer worker list ----

    @Test
    void workerListShowsEveryStoredKeyOfEveryWorker() {
        CliRun run = CliRun.run(environment, "consumer", "worker", "list", STREAM, "charge-cards");

        assertThat(run.exitCode()).isZero();
        List<Map<String, String>> expected = List.of(
                storedKey("exception_consumer", "exception_initial_backoff", "1h0m0s"),
                storedKey("exception_consumer", "message.retry.max_retries", "5"),
                storedKey("exception_consumer", "message.timeout", "10s"),
                storedKey("message_consumer", "exception_initial_backoff", "1h0m0s"),
                storedKey("message_consumer", "message.retry.max_retries", "5"),
                storedKey("message_consumer", "message.timeout", "10s"));
        assertThat(TextTables.rows(run.outLines())).containsExactlyElementsOf(expected);
    }

    @Test
    void workerListJsonHoldsStreamConsumerAndKeys() {
        CliRun run = CliRun.run(environment, "consumer", "worker", "list", STREAM, "charge-cards",
                "exception_initial_backoff", "-o", "json");

        assertThat(run.exitCode()).isZero();
        assertThat(run.json()).isEqualTo(Json.createObjectBuilder()
                .add("stream", STREAM)
                .add("consumer", "charge-cards")
                .add("keys", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("worker", "exception_consumer")
                                .add("key", "exception_initial_backoff").add("value", "1h0m0s"))
                        .add(Json.createObjectBuilder().add("worker", "message_consumer")
                                .add("key", "exception_initial_backoff").add("value", "1h0m0s")))
                .build());
    }

    @ParameterizedTest
    @CsvSource({
            "message.timeout, message.timeout",
            "message.retry, message.retry.max_retries",
            "message, message.retry.max_retries message.timeout",
            "exception-initial-backoff, exception_initial_backoff",
            "message.retry.base_delay, ''"})
    void workerListFiltersByKeyOrSubtree(String key, String expectedKeys) {
        CliRun run = CliRun.run(environment, "consumer", "worker", "list", STREAM, "charge-cards", key, "-o", "json");

        assertThat(run.exitCode()).isZero();
        List<String> keys = run.json().asJsonObject().getJsonArray("keys").stream()
                .map(entry -> entry.asJsonObject().getString("key")).distinct().toList();
        assertThat(String.join(" ", keys)).isEqualTo(expectedKeys);
    }

    @Test
    void workerListOfAGroupDeclaredWithDefaultsHasNoStoredKeys() {
        CliRun text = CliRun.run(environment, "consumer", "worker", "list", STREAM, "audit");
        CliRun oneKey = CliRun.run(environment, "consumer", "worker", "list", STREAM, "audit", "message.timeout");
        CliRun json = CliRun.run(environment, "consumer", "worker", "list", STREAM, "audit", "-o", "json");

        assertThat(text.exitCode()).isZero();
        assertThat(text.outLines()).containsExactly("no stored keys: every value is the library default");
        assertThat(oneKey.outLines()).containsExactly("no worker stores \"message.timeout\": it takes the library default");
        assertThat(json.json().asJsonObject().getJsonArray("keys")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"claimPollRate", "claim_poll_rate", "claim-poll-rate", "batchLimit"})
    void aSessionOptionIsNeverStoredAndAskingForOneIsAUsageError(String option) {
        CliRun run = CliRun.run(environment, "consumer", "worker", "list", STREAM, "charge-cards", option);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString()
                .startsWith("usage: \"" + option + "\" is a session option (ConsumeOptions.")
                .contains("never stored");
    }

    // ---- consumer inspect ----

    @Test
    void inspectJsonShowsBothLayersTheCursorAndTheExceptionRows() {
        CliRun run = CliRun.run(environment, "consumer", "inspect", STREAM, "charge-cards", "-o", "json");

        assertThat(run.exitCode()).isZero();
        JsonObject inspection = run.json().asJsonObject();
        assertThat(inspection.getJsonObject("consumer").getJsonNumber("id").longValue()).isEqualTo(chargeCards.id());
        assertThat(inspection.getJsonObject("declared")).isEqualTo(Json.createObjectBuilder()
                .add("message", Json.createObjectBuilder().add("timeout", "10s")
                        .add("retry", Json.createObjectBuilder().add("max_retries", 5)))
                .add("exception_initial_backoff", "1h0m0s")
                .build());
        JsonObject effectiveRetry = Json.createObjectBuilder().add("max_retries", 5)
                .add("base_delay", "1s").add("max_delay", "5m0s").add("exponent", 2).build();
        JsonObject effectiveMessage = Json.createObjectBuilder().add("timeout", "10s").add("retry", effectiveRetry)
                .build();
        assertThat(inspection.getJsonObject("effective")).isEqualTo(Json.createObjectBuilder()
                .add("message", effectiveMessage)
                .add("message_max", effectiveMessage)
                .add("exception_initial_backoff", "1h0m0s")
                .add("max_range_reclaims", 3)
                .build());
        assertThat(inspection.getJsonObject("cursor")).isEqualTo(Json.createObjectBuilder()
                .add("head", 3).add("claimed", 3).add("committed", 2).add("lag", 1).add("open_leases", 0).build());
        assertThat(inspection.getJsonObject("exceptions")).isEqualTo(Json.createObjectBuilder()
                .add("ready", 1).add("inflight", 0).add("deferred", 0).add("dead", 1).add("superseded", 0)
                .add("discarded", 0).build());
    }

    @Test
    void inspectTextPutsDeclaredBesideEffective() {
        CliRun run = CliRun.run(environment, "consumer", "inspect", STREAM, "charge-cards");

        assertThat(run.exitCode()).isZero();
        List<List<String>> sections = sections(run.outLines());
        assertThat(sections.get(0)).containsExactly("consumer group \"charge-cards\" on stream \"payments.requested\""
                + " (id " + chargeCards.id() + ")");
        List<Map<String, String>> config = TextTables.rows(sections.get(1));
        assertThat(config).contains(
                configRow("message.timeout", "10s", "10s"),
                configRow("message.retry.max_retries", "5", "5"),
                configRow("message.retry.base_delay", "-", "1s"),
                configRow("message_max.timeout", "-", "10s"),
                configRow("exception_initial_backoff", "1h0m0s", "1h0m0s"),
                configRow("max_range_reclaims", "-", "3"));
        assertThat(sections.get(2).get(0)).isEqualTo("CURSOR");
        assertThat(TextTables.fields(sections.get(2).subList(1, sections.get(2).size())))
                .containsEntry("head", "3").containsEntry("committed", "2").containsEntry("lag", "1")
                .containsEntry("open_leases", "0");
        assertThat(sections.get(3).get(0)).isEqualTo("EXCEPTIONS");
        assertThat(TextTables.fields(sections.get(3).subList(1, sections.get(3).size())))
                .containsExactly(Map.entry("ready", "1"), Map.entry("inflight", "0"), Map.entry("deferred", "0"),
                        Map.entry("dead", "1"), Map.entry("superseded", "0"), Map.entry("discarded", "0"));
    }

    @Test
    void inspectOfAGroupThatNeverRanShowsItsLagAndTheLibraryDefaults() {
        CliRun run = CliRun.run(environment, "consumer", "inspect", STREAM, "audit", "-o", "json");

        JsonObject inspection = run.json().asJsonObject();
        assertThat(inspection.getJsonObject("declared")).isEqualTo(JsonValue.EMPTY_JSON_OBJECT);
        assertThat(inspection.getJsonObject("effective").getJsonObject("message").getString("timeout")).isEqualTo("30s");
        assertThat(inspection.getJsonObject("effective").getString("exception_initial_backoff")).isEqualTo("5s");
        assertThat(inspection.getJsonObject("cursor").getInt("committed")).isZero();
        assertThat(inspection.getJsonObject("cursor").getInt("lag")).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"worker list", "inspect"})
    void aVerbOnAnAbsentGroupFailsWithItsCode(String verb) {
        String[] args = ("consumer " + verb + " " + STREAM + " refunds").split(" ");

        CliRun run = CliRun.run(environment, args);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().startsWith("SQL0014 ").contains("refunds");
    }

    private static Map<String, String> storedKey(String worker, String key, String value) {
        return Map.of("WORKER", worker, "KEY", key, "VALUE", value);
    }

    private static Map<String, String> configRow(String key, String declared, String effective) {
        return Map.of("CONFIG", key, "DECLARED", declared, "EFFECTIVE", effective);
    }

    /** The text output's blocks, split at blank lines. */
    private static List<List<String>> sections(List<String> lines) {
        List<List<String>> sections = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (String line : lines) {
            if (line.isEmpty()) {
                sections.add(current);
                current = new ArrayList<>();
            } else {
                current.add(line);
            }
        }
        sections.add(current);
        return sections;
    }
}
