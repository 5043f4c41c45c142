package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Binding;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * {@code consumer binding get|list} against two streams: {@code payments.requested} with {@code eu-cards}, bound to
 * two patterns, and {@code audit}, which reads the whole stream; {@code orders.created} with {@code shipping}.
 */
@PostgresTest
class BindingCommandsTest {
    private static final String PAYMENTS = "payments.requested";

    private static Map<String, String> environment;
    private static Binding euCards;

    @BeforeAll
    static void registerGroups(TestDatabase database) throws SQLException {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        StreamHandle<Numbered> payments = client.stream(PAYMENTS, Numbered.class);
        payments.register();
        payments.consumer("eu-cards").register(ConsumerConfig.builder().bindings(List.of("eu.*", "card.#")).build());
        payments.consumer("audit").register();
        StreamHandle<Numbered> orders = client.stream("orders.created", Numbered.class);
        orders.register();
        orders.consumer("shipping").register();
        euCards = payments.consumer("eu-cards").binding().get().orElseThrow();
        environment = CliRun.environmentFor(database);
    }

    @Test
    void getShowsTheEffectiveSetFieldByField() {
        CliRun run = CliRun.run(environment, "consumer", "binding", "get", PAYMENTS, "eu-cards");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(TextTables.fields(run.outLines())).containsExactly(
                Map.entry("stream", PAYMENTS),
                Map.entry("consumer", "eu-cards"),
                Map.entry("patterns", String.join(",", euCards.patterns())),
                Map.entry("declared_by", euCards.declaredBy()),
                Map.entry("declared_at", euCards.declaredAt().toString()),
                Map.entry("installed_at", euCards.attemptedAt().toString()));
    }

    @Test
    void getJsonHasNullPatternsForAGroupThatReadsTheWholeStream() {
        CliRun bound = CliRun.run(environment, "consumer", "binding", "get", PAYMENTS, "eu-cards", "-o", "json");
        CliRun whole = CliRun.run(environment, "consumer", "binding", "get", PAYMENTS, "audit", "-o", "json");
        CliRun wholeText = CliRun.run(environment, "consumer", "binding", "get", PAYMENTS, "audit");

        assertThat(bound.exitCode()).isZero();
        assertThat(bound.json().asJsonObject()).isEqualTo(euCardsJson());
        assertThat(whole.exitCode()).isZero();
        assertThat(whole.json().asJsonObject()).isEqualTo(Json.createObjectBuilder().add("stream", PAYMENTS)
                .add("consumer", "audit").addNull("patterns").addNull("declared_by").addNull("declared_at")
                .addNull("installed_at").build());
        assertThat(TextTables.fields(wholeText.outLines())).containsEntry("patterns", BindingCommands.WHOLE_STREAM);
    }

    @Test
    void getOfAnUnknownGroupOrStreamIsAbsent() {
        CliRun group = CliRun.run(environment, "consumer", "binding", "get", PAYMENTS, "missing");
        CliRun stream = CliRun.run(environment, "consumer", "binding", "get", "orders.missing", "audit", "-o", "json");

        assertThat(List.of(group, stream)).extracting(CliRun::exitCode).containsOnly(ExitCodes.ABSENT);
        assertThat(group.err()).startsWith("SQL0014 ");
        assertThat(stream.error().getString("code")).isEqualTo("SQL0005");
        assertThat(group.out() + stream.out()).isEmpty();
    }

    @Test
    void listShowsEveryGroupOfEveryStream() {
        CliRun text = CliRun.run(environment, "consumer", "binding", "list");
        CliRun json = CliRun.run(environment, "consumer", "binding", "list", "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(TextTables.rows(text.outLines())).containsExactly(
                Map.of("STREAM", "orders.created", "CONSUMER", "shipping", "PATTERNS", BindingCommands.WHOLE_STREAM,
                        "DECLARED_AT", TextTable.NONE),
                Map.of("STREAM", PAYMENTS, "CONSUMER", "audit", "PATTERNS", BindingCommands.WHOLE_STREAM,
                        "DECLARED_AT", TextTable.NONE),
                Map.of("STREAM", PAYMENTS, "CONSUMER", "eu-cards", "PATTERNS", String.join(",", euCards.patterns()),
                        "DECLARED_AT", euCards.declaredAt().toString()));
        assertThat(json.exitCode()).isZero();
        JsonArray rows = json.json().asJsonArray();
        assertThat(rows).hasSize(3);
        assertThat(rows.getJsonObject(0).get("patterns")).isEqualTo(JsonValue.NULL);
        assertThat(rows.getJsonObject(2)).isEqualTo(euCardsJson());
    }

    @Test
    void listOfASchemaWithoutAnInstallationIsEmpty(TestDatabase database) {
        CliRun run = CliRun.run(environment, "consumer", "binding", "list", "--schema", database.extraSchema("none"),
                "-o", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.json()).isEqualTo(JsonValue.EMPTY_JSON_ARRAY);
    }

    private static JsonObject euCardsJson() {
        return Json.createObjectBuilder().add("stream", PAYMENTS).add("consumer", "eu-cards")
                .add("patterns", Json.createArrayBuilder(euCards.patterns()))
                .add("declared_by", euCards.declaredBy())
                .add("declared_at", euCards.declaredAt().toString())
                .add("installed_at", euCards.attemptedAt().toString())
                .build();
    }
}
