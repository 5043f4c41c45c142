package io.sqlstreams.sample.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class OrderRequestReaderTest {

    @Test
    void readsAValidOrderWithTheCustomerTrimmed() {
        NewOrder order = OrderRequestReader.read("{\"customer\":\"  ada \",\"amountCents\":1234,\"currency\":\"EUR\"}");

        assertThat(order).isEqualTo(new NewOrder("ada", 1234, "EUR"));
    }

    @Test
    void reportsMalformedJsonWithThePositionWhereItWentWrong() {
        assertThat(problemsOf("{\"customer\": x}"))
                .containsExactly("the body is not valid JSON: unexpected text ending at line 1, column 14");
        assertThat(problemsOf("{\n  \"customer\": \"ada\",\n  \"currency\" \"EUR\"}"))
                .containsExactly("the body is not valid JSON: unexpected text ending at line 3, column 18");
        assertThat(problemsOf("{} {}"))
                .containsExactly("the body is not valid JSON: unexpected text ending at line 1, column 4");
    }

    @Test
    void aBodyCutShortHasNoPositionToReport() {
        assertThat(problemsOf("{\"customer\":"))
                .containsExactly("the body is not valid JSON: it ends before its value is complete");
        assertThat(problemsOf("[1, 2")).containsExactly("the body is not valid JSON: it ends before its value is complete");
        assertThat(problemsOf("")).containsExactly("the body is empty; it must be a JSON object");
        assertThat(problemsOf(" \n")).containsExactly("the body is empty; it must be a JSON object");
    }

    @Test
    void requiresAnObject() {
        assertThat(problemsOf("[1, 2]")).containsExactly("the body must be a JSON object");
        assertThat(problemsOf("\"order\"")).containsExactly("the body must be a JSON object");
    }

    @Test
    void reportsEveryMissingFieldAtOnce() {
        assertThat(problemsOf("{}"))
                .containsExactly("customer is required", "amountCents is required", "currency is required");
        assertThat(problemsOf("{\"customer\":null,\"amountCents\":null,\"currency\":null}"))
                .containsExactly("customer is required", "amountCents is required", "currency is required");
    }

    @Test
    void reportsFieldsOfTheWrongType() {
        assertThat(problemsOf("{\"customer\":42,\"amountCents\":\"12\",\"currency\":[\"EUR\"]}"))
                .containsExactly("customer must be a string", "amountCents must be a whole number of cents",
                        "currency must be a string");
    }

    @Test
    void reportsUnknownFieldsSuchAsAMisspelling() {
        assertThat(problemsOf("{\"customer\":\"ada\",\"amount\":12,\"currency\":\"EUR\"}"))
                .containsExactly("unknown field amount", "amountCents is required");
    }

    @Test
    void rejectsABlankOrOverlongCustomer() {
        assertThat(problemsOf(body("\"   \"", "100", "\"EUR\""))).containsExactly("customer must not be blank");
        String overlong = "\"" + "c".repeat(OrderRequestReader.MAX_CUSTOMER_LENGTH + 1) + "\"";
        assertThat(problemsOf(body(overlong, "100", "\"EUR\"")))
                .containsExactly("customer must be at most 100 characters long");
    }

    @Test
    void acceptsWholePositiveCentsOnly() {
        assertThat(problemsOf(body("\"ada\"", "0", "\"EUR\""))).containsExactly("amountCents must be at least 1");
        assertThat(problemsOf(body("\"ada\"", "-5", "\"EUR\""))).containsExactly("amountCents must be at least 1");
        assertThat(problemsOf(body("\"ada\"", "12.5", "\"EUR\"")))
                .containsExactly("amountCents must be a whole number of cents");
        assertThat(problemsOf(body("\"ada\"", "9223372036854775808", "\"EUR\"")))
                .containsExactly("amountCents is too large");
        assertThat(problemsOf(body("\"ada\"", "1e30", "\"EUR\""))).containsExactly("amountCents is too large");
        assertThat(OrderRequestReader.read(body("\"ada\"", "1", "\"EUR\"")).amountCents()).isEqualTo(1);
        assertThat(OrderRequestReader.read(body("\"ada\"", "1.5e2", "\"EUR\"")).amountCents()).isEqualTo(150);
    }

    @Test
    void acceptsKnownIsoCurrencyCodesInCapitalsOnly() {
        String expected = "currency must be an ISO 4217 code in capitals, such as EUR";
        assertThat(problemsOf(body("\"ada\"", "100", "\"eur\""))).containsExactly(expected);
        assertThat(problemsOf(body("\"ada\"", "100", "\"ZZZ\""))).containsExactly(expected);
        assertThat(problemsOf(body("\"ada\"", "100", "\"EURO\""))).containsExactly(expected);
        assertThat(OrderRequestReader.read(body("\"ada\"", "100", "\"JPY\"")).currency()).isEqualTo("JPY");
    }

    @Test
    void refusesABodyNestedDeeperThanTheLimitBeforeBuildingIt() throws InterruptedException {
        String tooDeep = "the body nests deeper than 32 levels";
        assertThat(problemsOnASmallStack("[".repeat(1000))).containsExactly(tooDeep);
        assertThat(problemsOf("{\"a\":".repeat(1000))).containsExactly(tooDeep);
        assertThat(problemsOf("[{\"a\":".repeat(500))).containsExactly(tooDeep);
        assertThat(problemsOf("{\"customer\":" + "[".repeat(32) + "]".repeat(32) + "}")).containsExactly(tooDeep);
    }

    @Test
    void acceptsNestingUpToTheLimit() {
        assertThat(problemsOf(nested(32))).containsExactly("the body must be a JSON object");
        assertThat(problemsOf(nested(33))).containsExactly("the body nests deeper than 32 levels");
        assertThat(problemsOf(body("[".repeat(31) + "\"ada\"" + "]".repeat(31), "100", "\"EUR\"")))
                .as("the order's object and 31 arrays in it").containsExactly("customer must be a string");
    }

    @Test
    void bracketsInsideStringsAreNoNesting() {
        NewOrder order = OrderRequestReader.read(body("\"" + "[{".repeat(40) + "\\\"[\"", "100", "\"EUR\""));
        assertThat(order.customer()).isEqualTo("[{".repeat(40) + "\"[");

        assertThat(problemsOf(body("\"" + "[".repeat(1000) + "\"", "100", "\"EUR\"")))
                .containsExactly("customer must be at most 100 characters long");
        assertThat(problemsOf("{\"[[[[\":1}")).containsExactly("unknown field [[[[", "customer is required",
                "amountCents is required", "currency is required");
    }

    @Test
    void aMalformedBodyWithinTheLimitIsStillReportedWhereItWentWrong() {
        assertThat(problemsOf("[[[x]]]"))
                .containsExactly("the body is not valid JSON: unexpected text ending at line 1, column 4");
        assertThat(problemsOf("[".repeat(10)))
                .containsExactly("the body is not valid JSON: it ends before its value is complete");
    }

    /**
     * The problems of {@code body} read on a thread whose stack is too small for building 1,000 levels of nesting
     * (a {@code StackOverflowError} there leaves the problems null).
     */
    private static List<String> problemsOnASmallStack(String body) throws InterruptedException {
        AtomicReference<List<String>> problems = new AtomicReference<>();
        Thread reader = new Thread(null, () -> problems.set(problemsOf(body)), "small-stack", 128 * 1024);
        reader.start();
        reader.join();
        return problems.get();
    }

    /** {@code depth} arrays, one inside the other, around nothing. */
    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    private static String body(String customer, String amountCents, String currency) {
        return "{\"customer\":" + customer + ",\"amountCents\":" + amountCents + ",\"currency\":" + currency + "}";
    }

    private static List<String> problemsOf(String body) {
        InvalidOrderException invalid = catchThrowableOfType(InvalidOrderException.class,
                () -> OrderRequestReader.read(body));
        assertThat(invalid).as("the problems of %s", body).isNotNull();
        return invalid.problems();
    }
}
