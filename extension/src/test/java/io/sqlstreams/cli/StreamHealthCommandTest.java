package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.CompactionOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.Start;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.HeldFence;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

/**
 * {@code stream health} of {@code payments.requested}: two version-1 messages (one compacted under key
 * {@code order-1}) read by nobody yet, then one version-2 message; {@code ledger} reads version 1 from the beginning,
 * {@code billing} was registered at the head after all three; {@code orders.created} holds nothing. No
 * transaction holds back a group of theirs; one holds back {@code payments.held}'s group in its own test.
 */
@PostgresTest
class StreamHealthCommandTest {
    private static final String STREAM = "payments.requested";

    @SchemaVersion(1)
    public record PaymentV1(String order) {
    }

    @SchemaVersion(2)
    public record PaymentV2(String order, long cents) {
    }

    private static Map<String, String> environment;
    private static List<Long> ids;
    private static EngineClient client;

    @BeforeAll
    static void produceTwoVersions(TestDatabase database) throws SQLException {
        client = EngineFixtures.client(database, new RecordingLogger());
        client.stream("orders.created", PaymentV1.class).register();
        StreamHandle<PaymentV1> v1 = client.stream(STREAM, PaymentV1.class);
        v1.register();
        v1.consumer("ledger").register();
        StreamHandle<PaymentV2> v2 = client.stream(STREAM, PaymentV2.class);
        try (Producer<PaymentV1> old = v1.producer().register();
             Producer<PaymentV2> current = v2.producer().register()) {
            ids = List.of(
                    old.produce(new PaymentV1("1"), ProduceOptions.builder().messageKey("order-1")
                            .compaction(CompactionOptions.enabled()).build()).id(),
                    old.produce(new PaymentV1("2")).id(),
                    current.produce(new PaymentV2("3", 300)).id());
        }
        v2.consumer("billing").register(ConsumerConfig.builder().start(Start.HEAD).build());
        environment = CliRun.environmentFor(database);
    }

    @Test
    void textShowsEachVersionThenWhatItsGroupsStillHoldThenTheirFences() {
        CliRun run = CliRun.run(environment, "stream", "health", STREAM);

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = run.outLines();
        int gap = lines.indexOf("");
        int fenceGap = lines.lastIndexOf("");
        assertThat(TextTables.rows(lines.subList(0, gap))).containsExactly(
                Map.of("VERSION", "1", "MESSAGES", "2", "FIRST_ID", ids.get(0).toString(),
                        "LAST_ID", ids.get(1).toString(), "COMPACTION_HEADS", "1", "RETIRABLE", "false"),
                Map.of("VERSION", "2", "MESSAGES", "1", "FIRST_ID", ids.get(2).toString(),
                        "LAST_ID", ids.get(2).toString(), "COMPACTION_HEADS", "0", "RETIRABLE", "false"));
        assertThat(TextTables.rows(lines.subList(gap + 1, fenceGap))).containsExactly(
                Map.of("VERSION", "1", "CONSUMER", "ledger", "UNREAD", "2", "RETRYING", "0", "DEAD", "0"),
                Map.of("VERSION", "2", "CONSUMER", "ledger", "UNREAD", "1", "RETRYING", "0", "DEAD", "0"));
        assertThat(TextTables.rows(lines.subList(fenceGap + 1, lines.size()))).containsExactly(
                Map.of("CONSUMER", "billing", "FENCE", "not held"),
                Map.of("CONSUMER", "ledger", "FENCE", "not held"));
    }

    @Test
    void anOpenProducerHoldingAGroupIsNamedInTextAndJson(TestDatabase database) throws SQLException {
        try (HeldFence held = HeldFence.hold(client, database.dataSource(), "payments.held", "settlement")) {
            CliRun text = CliRun.run(environment, "stream", "health", "payments.held");
            CliRun json = CliRun.run(environment, "stream", "health", "payments.held", "-o", "json");

            assertThat(text.exitCode()).as(text.err()).isZero();
            List<String> lines = text.outLines();
            assertThat(TextTables.rows(lines.subList(lines.lastIndexOf("") + 1, lines.size()))).singleElement()
                    .satisfies(row -> assertThat(row.get("FENCE")).matches("held for [0-9]+ s by pid " + held.pid()
                            + " \\(xid [0-9]+, idle in transaction\\)"));
            JsonObject fence = json.json().asJsonObject().getJsonArray("fences").getJsonObject(0);
            assertThat(fence.getString("consumer")).isEqualTo("settlement");
            assertThat(fence.getBoolean("held")).isTrue();
            assertThat(fence.getString("summary")).startsWith("held for ");
            assertThat(fence.getJsonObject("holder").getInt("pid")).isEqualTo(held.pid());
            assertThat(fence.getJsonObject("holder").getString("state")).isEqualTo("idle in transaction");
            assertThat(fence.getJsonObject("holder").getJsonNumber("open_seconds").longValue()).isNotNegative();
            assertThat(fence.getInt("more_holders")).isZero();
        }
    }

    @Test
    void jsonIsTheStreamWithItsVersionsAndFences() {
        CliRun run = CliRun.run(environment, "stream", "health", STREAM, "-o", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonArray versions = run.json().asJsonObject().getJsonArray("versions");
        assertThat(run.json().asJsonObject().getString("stream")).isEqualTo(STREAM);
        assertThat(versions.getJsonObject(1)).isEqualTo(Json.createObjectBuilder()
                .add("schema_version", 2).add("messages", 1).add("first_id", ids.get(2)).add("last_id", ids.get(2))
                .add("compaction_heads", 0).add("retirable", false)
                .add("groups", Json.createArrayBuilder().add(Json.createObjectBuilder().add("consumer", "ledger")
                        .add("unread", 1).add("retrying", 0).add("dead", 0)))
                .build());
        assertThat(versions.getJsonObject(0).getInt("compaction_heads")).isEqualTo(1);
        assertThat(run.json().asJsonObject().getJsonArray("fences").getJsonObject(1)).isEqualTo(
                Json.createObjectBuilder().add("consumer", "ledger").add("held", false).add("summary", "not held")
                        .addNull("holder").add("more_holders", 0).build());
    }

    @Test
    void aStreamHoldingNothingHasNoVersions() {
        CliRun text = CliRun.run(environment, "stream", "health", "orders.created");
        CliRun json = CliRun.run(environment, "stream", "health", "orders.created", "-o", "json");

        assertThat(text.exitCode()).isZero();
        assertThat(TextTables.rows(text.outLines())).isEmpty();
        assertThat(json.json().asJsonObject()).isEqualTo(Json.createObjectBuilder().add("stream", "orders.created")
                .add("versions", Json.createArrayBuilder()).add("fences", Json.createArrayBuilder()).build());
    }

    @Test
    void anUnknownStreamIsAbsentAndABadNameAUsageError() {
        CliRun unknown = CliRun.run(environment, "stream", "health", "payments.missing", "-o", "json");
        CliRun badName = CliRun.run(environment, "stream", "health", "Bad Name");

        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(unknown.error().getString("code")).isEqualTo("SQL0005");
        assertThat(badName.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badName.err()).startsWith("SQL0109 ");
        assertThat(unknown.out() + badName.out()).isEmpty();
    }

    /**
     * {@code payments.routed}: at version 1 {@code eu.paris} and then {@code eu.lyon} under compaction key {@code k}
     * (so {@code eu.paris} is superseded), {@code us.nyc} and {@code eu.rome}; at version 2 {@code eu.berlin} and
     * {@code us.la}. {@code eu-cards} binds {@code eu.*}, {@code all-cards} binds nothing.
     */
    @Test
    void unreadCountsOnlyWhatTheGroupWillBeDeliveredAtEachVersion() {
        String routed = "payments.routed";
        StreamHandle<PaymentV1> v1 = client.stream(routed, PaymentV1.class);
        v1.register();
        v1.consumer("eu-cards").register(ConsumerConfig.builder().bindings(List.of("eu.*")).build());
        v1.consumer("all-cards").register();
        ProduceOptions compacted = ProduceOptions.builder().routingKey("eu.paris").messageKey("k")
                .compaction(CompactionOptions.enabled()).build();
        try (Producer<PaymentV1> old = v1.producer().register();
             Producer<PaymentV2> current = client.stream(routed, PaymentV2.class).producer().register()) {
            old.produce(new PaymentV1("1"), compacted);
            old.produce(new PaymentV1("2"), ProduceOptions.builder().routingKey("eu.lyon").messageKey("k")
                    .compaction(CompactionOptions.enabled()).build());
            old.produce(new PaymentV1("3"), ProduceOptions.builder().routingKey("us.nyc").build());
            old.produce(new PaymentV1("4"), ProduceOptions.builder().routingKey("eu.rome").build());
            current.produce(new PaymentV2("5", 500), ProduceOptions.builder().routingKey("eu.berlin").build());
            current.produce(new PaymentV2("6", 600), ProduceOptions.builder().routingKey("us.la").build());
        }

        CliRun run = CliRun.run(environment, "stream", "health", routed);

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = run.outLines();
        assertThat(TextTables.rows(lines.subList(lines.indexOf("") + 1, lines.lastIndexOf("")))).containsExactly(
                Map.of("VERSION", "1", "CONSUMER", "all-cards", "UNREAD", "3", "RETRYING", "0", "DEAD", "0"),
                Map.of("VERSION", "1", "CONSUMER", "eu-cards", "UNREAD", "2", "RETRYING", "0", "DEAD", "0"),
                Map.of("VERSION", "2", "CONSUMER", "all-cards", "UNREAD", "2", "RETRYING", "0", "DEAD", "0"),
                Map.of("VERSION", "2", "CONSUMER", "eu-cards", "UNREAD", "1", "RETRYING", "0", "DEAD", "0"));
    }
}
