package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.CompactionOptions;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * {@code stream key get|compaction-head|messages} on a stream where key {@code sku-1} holds a pinned head (rank 5),
 * a newer compacted message of a lower rank and a newer message outside compaction, and key {@code sku-2} only a
 * message outside compaction.
 */
@PostgresTest
class KeyCommandsTest {
    private static final String STREAM = "prices.changed";

    private static Map<String, String> environment;
    private static long pinned;
    private static long lowerRank;
    private static long uncompacted;

    @SchemaVersion(1)
    public record Price(String sku, long cents) {
    }

    @BeforeAll
    static void produceVersions(TestDatabase database) throws SQLException {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        client.stream(STREAM, Price.class).register();
        try (Producer<Price> producer = client.stream(STREAM, Price.class).producer().register()) {
            pinned = producer.produce(new Price("sku-1", 120), compacted(5)).id();
            lowerRank = producer.produce(new Price("sku-1", 130), compacted(0)).id();
            uncompacted = producer.produce(new Price("sku-1", 140), ProduceOptions.builder().messageKey("sku-1")
                    .routingKey("eu").header("tenant", "acme").build()).id();
            producer.produce(new Price("sku-2", 10), ProduceOptions.builder().messageKey("sku-2").build());
        }
        environment = CliRun.environmentFor(database);
    }

    private static ProduceOptions compacted(long rank) {
        return ProduceOptions.builder().messageKey("sku-1").compaction(CompactionOptions.withRank(rank)).build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"get", "compaction-head"})
    void theHeadShowsFieldByFieldWithItsPayload(String verb) {
        CliRun run = CliRun.run(environment, "stream", "key", verb, STREAM, "sku-1");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(TextTables.fields(run.outLines())).containsEntry("id", Long.toString(pinned))
                .containsEntry("message_key", "sku-1").containsEntry("routing_key", "-")
                .containsEntry("compaction_rank", "5").containsEntry("schema_version", "1")
                .containsEntry("message", "{\"sku\":\"sku-1\",\"cents\":120}");
    }

    @Test
    void theHeadAsJsonCarriesThePayloadAsAnObject() {
        CliRun run = CliRun.run(environment, "stream", "key", "get", STREAM, "sku-1", "-o", "json");

        assertThat(run.exitCode()).isZero();
        JsonObject head = run.json().asJsonObject();
        assertThat(head.getJsonNumber("id").longValue()).isEqualTo(pinned);
        assertThat(head.getJsonNumber("compaction_rank").longValue()).isEqualTo(5);
        assertThat(head.getJsonObject("message").getInt("cents")).isEqualTo(120);
        assertThat(head.get("routing_key")).isEqualTo(JsonValue.NULL);
    }

    @Test
    void aKeyWithoutCompactedMessagesIsSql0066WithExitOne() {
        CliRun run = CliRun.run(environment, "stream", "key", "compaction-head", STREAM, "sku-2");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().startsWith("SQL0066 ");
    }

    @Test
    void anUnknownStreamIsSql0005() {
        CliRun head = CliRun.run(environment, "stream", "key", "get", "prices.deleted", "sku-1");
        CliRun messages = CliRun.run(environment, "stream", "key", "messages", "prices.deleted", "sku-1");

        for (CliRun run : List.of(head, messages)) {
            assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
            assertThat(run.errLines()).singleElement().asString().startsWith("SQL0005 ");
        }
    }

    @Test
    void messagesListNewestFirstWithTheirRanks() {
        CliRun run = CliRun.run(environment, "stream", "key", "messages", STREAM, "sku-1");

        assertThat(run.exitCode()).isZero();
        List<Map<String, String>> rows = TextTables.rows(run.outLines());
        assertThat(rows).extracting(row -> row.get("ID")).containsExactly(Long.toString(uncompacted),
                Long.toString(lowerRank), Long.toString(pinned));
        assertThat(rows).extracting(row -> row.get("COMPACTION_RANK")).containsExactly("-", "0", "5");
        assertThat(rows.get(0)).containsEntry("ROUTING_KEY", "eu").containsEntry("HEADERS", "tenant=acme")
                .containsEntry("MESSAGE", "{\"sku\":\"sku-1\",\"cents\":140}");
        assertThat(rows.get(1)).containsEntry("HEADERS", "-");
    }

    @Test
    void messagesHonourTheLimitAndListAsAJsonArray() {
        CliRun run = CliRun.run(environment, "stream", "key", "messages", STREAM, "sku-1", "--limit", "2",
                "-o", "json");

        assertThat(run.exitCode()).isZero();
        JsonArray messages = run.json().asJsonArray();
        assertThat(messages).extracting(message -> ((JsonObject) message).getJsonNumber("id").longValue())
                .containsExactly(uncompacted, lowerRank);
        assertThat(messages.getJsonObject(0).get("compaction_rank")).isEqualTo(JsonValue.NULL);
        assertThat(messages.getJsonObject(0).getJsonObject("headers")).containsOnlyKeys("tenant")
                .containsEntry("tenant", Json.createValue("acme"));
        assertThat(messages.getJsonObject(1).getJsonObject("headers")).isEmpty();
    }

    @Test
    void anUnknownKeyHasNoMessages() {
        CliRun run = CliRun.run(environment, "stream", "key", "messages", STREAM, "sku-9", "-o", "json");

        assertThat(run.exitCode()).isZero();
        assertThat(run.json()).isEqualTo(JsonValue.EMPTY_JSON_ARRAY);
    }

    @Test
    void aSchemaWithoutAnInstallationIsSql0005AndStaysEmpty(TestDatabase database) throws SQLException {
        String empty = database.extraSchema("keys_empty");

        CliRun head = CliRun.run(environment, "stream", "key", "get", STREAM, "sku-1", "--schema", empty);
        CliRun messages = CliRun.run(environment, "stream", "key", "messages", STREAM, "sku-1", "--schema", empty);
        CliRun config = CliRun.run(environment, "stream", "config", "get", STREAM, "--schema", empty);

        for (CliRun run : List.of(head, messages, config)) {
            assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
            assertThat(run.errLines()).singleElement().asString().startsWith("SQL0005 ");
        }
        assertThat(new Sql(database).rows("SELECT table_name FROM information_schema.tables WHERE table_schema = ?",
                empty)).as("tables the reads created").isEmpty();
    }

    @Test
    void aLimitBelowOneIsAUsageError() {
        CliRun run = CliRun.run(environment, "stream", "key", "messages", STREAM, "sku-1", "--limit", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errLines()).singleElement().asString().startsWith("SQL0108 ");
    }
}
