package io.sqlstreams.sample.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import io.sqlstreams.sample.PaymentChargedV1;
import io.sqlstreams.sample.PaymentRequestedV1;
import io.sqlstreams.sample.charges.CardGateway;
import io.sqlstreams.sample.charges.ChargeCards;
import io.sqlstreams.sample.receipts.IssueReceipts;
import io.sqlstreams.sample.run.SampleClient.Answer;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

/**
 * The sample as {@link RunSample} runs it, with an embedded PostgreSQL and its traces on
 * ({@value RunSample#TRACE}), on the server a subclass names: orders placed over HTTP end charged, charged on the
 * retry, or declined, each charged one with a receipt, both groups catch up, an order's spans form one trace, and
 * the server reports no incident.
 */
@TestInstance(Lifecycle.PER_CLASS)
abstract class SampleScenario {
    // a flaky customer's retry comes after the exception path's first backoff, 5 s by default
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(45);

    private static final HexFormat HEX = HexFormat.of();

    private final List<SampleSpan> spans = new CopyOnWriteArrayList<>();
    private SampleRun run;
    private SampleClient client;

    /** A run of the sample on the server under test, not started yet. */
    abstract SampleRun newRun();

    /** The name the server gives the SERVER span of {@code POST /api/orders}. */
    abstract String placeOrderSpanName();

    @BeforeAll
    void start() throws InterruptedException {
        run = newRun().traceTo(spans::add);
        run.start(EmbeddedDatabase::start);
        client = new SampleClient(run.baseUri());
    }

    @AfterAll
    void stop() {
        if (run != null) {
            run.close();
        }
    }

    @Test
    void placedOrdersAreChargedRetriedOrDeclinedAndOnlyChargedOnesGetAReceipt() throws Exception {
        String flaky = place(CardGateway.FLAKY_PREFIX + "bob", 2500);
        String charged = place("ada", 1234);
        String declined = place("cy", CardGateway.LIMIT_CENTS + 1);

        JsonObject retrying = await().atMost(SETTLE_TIMEOUT).pollInterval(Duration.ofMillis(100))
                .until(() -> payment(flaky), payment -> payment.getString("state").equals("retrying"));
        assertThat(retrying.getInt("attempts")).isEqualTo(1);
        assertThat(retrying.getString("lastError")).as("the exception's message, without its stack")
                .doesNotContain("\n", "\tat ")
                .isEqualTo("the card gateway is unavailable for order " + flaky + " (attempt 1)");
        assertThat(retrying.getString("nextAttempt")).isNotBlank();

        JsonObject first = settled(charged);
        assertThat(first.getString("status")).isEqualTo("CHARGED");
        assertThat(first.getJsonObject("charge").getInt("attempt")).isEqualTo(1);
        assertThat(first.getJsonObject("payment").getString("state")).isEqualTo("charged");

        JsonObject retried = settled(flaky);
        assertThat(retried.getString("status")).isEqualTo("CHARGED");
        assertThat(retried.getJsonObject("charge").getInt("attempt")).isEqualTo(2);
        assertThat(retried.getJsonObject("payment").getInt("attempts")).isEqualTo(2);

        JsonObject refused = settled(declined);
        assertThat(refused.getString("status")).isEqualTo("DECLINED");
        assertThat(refused.containsKey("charge")).isFalse();
        assertThat(refused.getJsonObject("payment").getString("state")).isEqualTo("declined");
        assertThat(refused.getJsonObject("payment").getString("lastError"))
                .isEqualTo("SQL0055 delivery cannot succeed: the card for order " + declined + " was declined");

        Map<String, JsonObject> groups = await().atMost(SETTLE_TIMEOUT).until(this::groups,
                status -> status.values().stream().allMatch(group -> group.getInt("lag") == 0));
        assertThat(groups).containsOnlyKeys("charge-cards", "receipts");
        assertThat(groups.get("charge-cards").getInt("dead")).isEqualTo(1);
        assertThat(groups.get("receipts").getInt("dead")).isZero();
        assertThat(groups.get("receipts").getInt("head")).as("one PaymentChargedV1 per charged order").isEqualTo(2);
        assertThat(client.get("api/orders/" + declined).body().containsKey("receipt"))
                .as("receipts has read every charged payment and a declined order has none").isFalse();

        Answer ready = client.get("health/ready");
        assertThat(ready.status()).isEqualTo(200);
        JsonObject readiness = ready.body().getJsonArray("checks").getJsonObject(0).getJsonObject("data");
        assertThat(readiness).containsOnlyKeys("payments.requested/charge-cards", "payments.charged/receipts",
                "manager");
        assertThat(readiness.getString("manager")).as("the sample's sessions run the system manager")
                .startsWith("HOLDING");
        assertThat(run.server().incidents()).as("an expected retry or dead letter is no incident to the server")
                .isEmpty();
    }

    @Test
    void anOrderIsOneTraceFromItsRequestToItsReceipt() throws Exception {
        String traceId = randomHex(16);
        String clientSpanId = randomHex(8);
        Answer placed = client.placeOrderIn("00-" + traceId + "-" + clientSpanId + "-01", "dora", 4200);
        assertThat(placed.status()).as("%s", placed.body()).isEqualTo(201);
        assertThat(settled(placed.body().getString("id")).getString("status")).isEqualTo("CHARGED");

        String request = placeOrderSpanName();
        String sendRequested = "send " + PaymentRequestedV1.STREAM;
        String processRequested = "process " + PaymentRequestedV1.STREAM;
        String sendCharged = "send " + PaymentChargedV1.STREAM;
        String processCharged = "process " + PaymentChargedV1.STREAM;
        List<SampleSpan> trace = await("the order's five spans").atMost(SETTLE_TIMEOUT)
                .pollInterval(Duration.ofMillis(100)).until(() -> spansOf(traceId),
                        received -> received.stream().map(SampleSpan::name).collect(Collectors.toSet()).containsAll(
                                List.of(request, sendRequested, processRequested, sendCharged, processCharged)));
        assertThat(trace).as(lines(trace)).extracting(SampleSpan::name)
                .containsExactlyInAnyOrder(request, sendRequested, processRequested, sendCharged, processCharged);

        SampleSpan placing = named(trace, request, "SERVER", clientSpanId);
        SampleSpan requested = named(trace, sendRequested, "PRODUCER", placing.spanId());
        SampleSpan charging = named(trace, processRequested, "CONSUMER", requested.spanId());
        SampleSpan charged = named(trace, sendCharged, "PRODUCER", charging.spanId());
        SampleSpan receipt = named(trace, processCharged, "CONSUMER", charged.spanId());
        assertThat(requested.attributes()).containsEntry("messaging.system", "sqlstreams")
                .containsEntry("messaging.destination.name", PaymentRequestedV1.STREAM)
                .containsEntry("messaging.operation.type", "send").containsKey("messaging.message.id");
        assertThat(charging.attributes()).containsEntry("messaging.system", "sqlstreams")
                .containsEntry("messaging.destination.name", PaymentRequestedV1.STREAM)
                .containsEntry("messaging.consumer.group.name", ChargeCards.GROUP)
                .containsEntry("messaging.operation.type", "process")
                .containsEntry("messaging.message.id", requested.attributes().get("messaging.message.id"))
                .containsEntry("sqlstreams.delivery.attempt", 1L);
        assertThat(charged.attributes()).containsEntry("messaging.destination.name", PaymentChargedV1.STREAM)
                .containsEntry("messaging.operation.type", "send").containsKey("messaging.message.id");
        assertThat(receipt.attributes()).containsEntry("messaging.destination.name", PaymentChargedV1.STREAM)
                .containsEntry("messaging.consumer.group.name", IssueReceipts.GROUP)
                .containsEntry("messaging.message.id", charged.attributes().get("messaging.message.id"))
                .containsEntry("sqlstreams.delivery.attempt", 1L);
    }

    private List<SampleSpan> spansOf(String traceId) {
        return spans.stream().filter(span -> span.traceId().equals(traceId)).toList();
    }

    /** The trace's one span called {@code name}, after checking its kind and its parent. */
    private static SampleSpan named(List<SampleSpan> trace, String name, String kind, String parentSpanId) {
        SampleSpan span = trace.stream().filter(candidate -> candidate.name().equals(name)).findFirst().orElseThrow();
        assertThat(span.kind()).as(lines(trace)).isEqualTo(kind);
        assertThat(span.parentSpanId()).as("the parent of %s in%n%s", name, lines(trace)).isEqualTo(parentSpanId);
        return span;
    }

    private static String lines(List<SampleSpan> trace) {
        return trace.stream().map(SampleSpan::line).collect(Collectors.joining(System.lineSeparator()));
    }

    private static String randomHex(int bytes) {
        byte[] id = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(id);
        return HEX.formatHex(id);
    }

    @Test
    void theConsoleServesTheDemoUsersAndNobodyElse() throws Exception {
        String overview = ConsoleUsers.PATH + "api/overview";
        assertThat(client.get(overview).status()).isEqualTo(401);

        Answer operator = client.getAs(ConsoleUsers.OPERATOR, ConsoleUsers.PASSWORD, ConsoleUsers.PATH + "api/session");
        assertThat(operator.status()).isEqualTo(200);
        assertThat(operator.body().getBoolean("operator")).isTrue();
        Answer viewer = client.getAs(ConsoleUsers.VIEWER, ConsoleUsers.PASSWORD, ConsoleUsers.PATH + "api/session");
        assertThat(viewer.body().getBoolean("operator")).isFalse();

        Answer groups = client.getAs(ConsoleUsers.VIEWER, ConsoleUsers.PASSWORD, overview);
        assertThat(groups.status()).isEqualTo(200);
        assertThat(groups.body().getJsonArray("streams").getValuesAs(JsonObject.class))
                .flatExtracting(stream -> stream.getJsonArray("groups").getValuesAs(JsonObject.class))
                .extracting(group -> group.getString("group")).contains("charge-cards", "receipts");
    }

    @Test
    void theBannersCommandLineInspectsTheSamplesInstallation() throws Exception {
        List<String> command = new ArrayList<>(Instructions.inspectCommand(run.database().coordinates()));
        command.addAll(List.of("-o", "json"));
        Process cli = new ProcessBuilder(command).directory(Path.of("..").toFile()).redirectErrorStream(true).start();
        String output = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(cli.waitFor()).as(output).isZero();
        assertThat(output).contains("\"name\":\"charge-cards\"");
    }

    @Test
    void anInvalidOrderIsRefusedWithEveryProblem() throws Exception {
        Answer refused = client.placeOrder(" ", 0);

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().getJsonArray("problems").getValuesAs(JsonString::getString))
                .containsExactly("customer must not be blank", "amountCents must be at least 1");
    }

    @Test
    void aBodyOverTheLimitIsRefusedWith413WithoutBeingReadWhole() throws Exception {
        byte[] justOver = new byte[16 * 1024 + 1];
        Arrays.fill(justOver, (byte) ' ');
        Answer refused = client.postOrder(BodyPublishers.ofByteArray(justOver));
        assertThat(refused.status()).isEqualTo(413);
        assertThat(refused.body().getString("error")).isEqualTo("the body is larger than 16384 bytes");

        // the rest of each body is never sent: the answers come before it
        assertThat(HalfSentRequest.statusLine(run.baseUri(), "Content-Length: " + 50L * 1024 * 1024, new byte[0]))
                .as("a declared 50 MB body").contains(" 413 ");
        byte[] oneChunk = new byte[20 * 1024];
        Arrays.fill(oneChunk, (byte) ' ');
        assertThat(HalfSentRequest.statusLine(run.baseUri(), "Transfer-Encoding: chunked", chunk(oneChunk)))
                .as("a chunked body of unknown length").contains(" 413 ");
    }

    private static byte[] chunk(byte[] data) {
        byte[] head = (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] chunk = Arrays.copyOf(head, head.length + data.length + 2);
        System.arraycopy(data, 0, chunk, head.length, data.length);
        chunk[chunk.length - 2] = '\r';
        chunk[chunk.length - 1] = '\n';
        return chunk;
    }

    @Test
    void malformedJsonIsReportedWhereItWentWrong() throws Exception {
        Answer refused = client.postOrder(BodyPublishers.ofString("{\n  \"customer\": ada\n}"));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().getJsonArray("problems").getValuesAs(JsonString::getString))
                .containsExactly("the body is not valid JSON: unexpected text ending at line 2, column 15");

        Answer latin1 = client.postOrder(BodyPublishers.ofByteArray(
                "{\"customer\":\"Jos\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1)));
        assertThat(latin1.body().getJsonArray("problems").getValuesAs(JsonString::getString))
                .containsExactly("the body is not UTF-8 text");
    }

    @Test
    void aBodyNestedTooDeeplyIsRefusedLikeOtherMalformedJson() throws Exception {
        Answer refused = client.postOrder(BodyPublishers.ofString("[".repeat(1000)));

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).as("a JSON error").containsKey("problems");
        assertThat(refused.body().getString("error")).isEqualTo("the order cannot be placed");
        assertThat(refused.body().getJsonArray("problems").getValuesAs(JsonString::getString))
                .containsExactly("the body nests deeper than 32 levels");
        assertThat(run.server().incidents()).as("a malformed body is no incident to the server").isEmpty();
    }

    private String place(String customer, long amountCents) throws Exception {
        Answer placed = client.placeOrder(customer, amountCents);
        assertThat(placed.status()).as("%s", placed.body()).isEqualTo(201);
        assertThat(placed.body().getString("status")).isEqualTo("PLACED");
        return placed.body().getString("id");
    }

    /** The order once its card is decided and, if it was charged, its receipt issued. */
    private JsonObject settled(String orderId) {
        return await().atMost(SETTLE_TIMEOUT).pollInterval(Duration.ofMillis(250))
                .until(() -> client.get("api/orders/" + orderId).body(), order -> switch (order.getString("status")) {
                    case "CHARGED" -> order.containsKey("receipt");
                    case "DECLINED" -> true;
                    default -> false;
                });
    }

    private JsonObject payment(String orderId) throws Exception {
        return client.get("api/orders/" + orderId).body().getJsonObject("payment");
    }

    private Map<String, JsonObject> groups() throws Exception {
        return client.get("api/status").body().getJsonArray("groups").getValuesAs(JsonObject.class).stream()
                .collect(Collectors.toMap(group -> group.getString("group"), Function.identity()));
    }
}
