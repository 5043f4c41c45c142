package io.sqlstreams.sample.orders;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonLocation;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import jakarta.json.stream.JsonParsingException;

/**
 * Reads the body of {@code POST /api/orders}, {@code {"customer":"…","amountCents":1234,"currency":"EUR"}}, into
 * a {@link NewOrder}, or reports everything wrong with it at once.
 */
public final class OrderRequestReader {
    public static final int MAX_CUSTOMER_LENGTH = 100;

    private static final Set<String> FIELDS = Set.of("customer", "amountCents", "currency");
    private static final Pattern CURRENCY_CODE = Pattern.compile("[A-Z]{3}");
    private static final JsonParserFactory PARSERS = Json.createParserFactory(Map.of());

    private OrderRequestReader() {
    }

    /** @throws InvalidOrderException listing every problem of the body */
    public static NewOrder read(String body) {
        JsonObject json = parseObject(body);
        List<String> problems = new ArrayList<>();
        json.keySet().stream().filter(name -> !FIELDS.contains(name)).sorted()
                .forEach(name -> problems.add("unknown field " + name));
        String customer = customer(json, problems);
        long amountCents = amountCents(json, problems);
        String currency = currency(json, problems);
        if (!problems.isEmpty()) {
            throw new InvalidOrderException(problems);
        }
        return new NewOrder(customer, amountCents, currency);
    }

    private static JsonObject parseObject(String body) {
        String text = body == null ? "" : body;
        if (text.isBlank()) {
            throw new InvalidOrderException(List.of("the body is empty; it must be a JSON object"));
        }
        JsonValue parsed;
        try {
            NestingLimit.check(PARSERS, text);
            parsed = parse(text);
        } catch (JsonParsingException malformed) {
            throw new InvalidOrderException(List.of(notJson(malformed.getLocation(), text)));
        }
        if (!(parsed instanceof JsonObject object)) {
            throw new InvalidOrderException(List.of("the body must be a JSON object"));
        }
        return object;
    }

    private static JsonValue parse(String text) {
        try (JsonParser parser = PARSERS.createParser(new StringReader(text))) {
            parser.next();
            JsonValue parsed = parser.getValue();
            // anything but white space after the value makes the parser throw
            parser.hasNext();
            return parsed;
        }
    }

    /**
     * Where the parser stopped: the last character of the text it did not expect. At the end of the body it
     * reports no usable position.
     */
    private static String notJson(JsonLocation location, String body) {
        if (location == null || location.getStreamOffset() < 0 || location.getStreamOffset() >= body.length()) {
            return "the body is not valid JSON: it ends before its value is complete";
        }
        return "the body is not valid JSON: unexpected text ending at line " + location.getLineNumber()
                + ", column " + location.getColumnNumber();
    }

    private static String customer(JsonObject json, List<String> problems) {
        String customer = text(json, "customer", problems);
        if (customer == null) {
            return null;
        }
        customer = customer.strip();
        if (customer.isEmpty()) {
            problems.add("customer must not be blank");
        } else if (customer.length() > MAX_CUSTOMER_LENGTH) {
            problems.add("customer must be at most " + MAX_CUSTOMER_LENGTH + " characters long");
        }
        return customer;
    }

    private static long amountCents(JsonObject json, List<String> problems) {
        JsonValue value = json.get("amountCents");
        if (value == null || value == JsonValue.NULL) {
            problems.add("amountCents is required");
            return 0;
        }
        if (!(value instanceof JsonNumber number) || number.bigDecimalValue().stripTrailingZeros().scale() > 0) {
            problems.add("amountCents must be a whole number of cents");
            return 0;
        }
        BigDecimal amountCents = number.bigDecimalValue();
        if (amountCents.compareTo(BigDecimal.ONE) < 0) {
            problems.add("amountCents must be at least 1");
            return 0;
        }
        if (amountCents.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            problems.add("amountCents is too large");
            return 0;
        }
        return amountCents.longValueExact();
    }

    private static String currency(JsonObject json, List<String> problems) {
        String currency = text(json, "currency", problems);
        if (currency != null && !isKnownCurrency(currency)) {
            problems.add("currency must be an ISO 4217 code in capitals, such as EUR");
        }
        return currency;
    }

    private static boolean isKnownCurrency(String code) {
        if (!CURRENCY_CODE.matcher(code).matches()) {
            return false;
        }
        try {
            Currency.getInstance(code);
            return true;
        } catch (IllegalArgumentException unknown) {
            return false;
        }
    }

    /** The string field {@code name}, or null after adding why it is missing or not a string. */
    private static String text(JsonObject json, String name, List<String> problems) {
        JsonValue value = json.get(name);
        if (value == null || value == JsonValue.NULL) {
            problems.add(name + " is required");
            return null;
        }
        if (!(value instanceof JsonString string)) {
            problems.add(name + " must be a string");
            return null;
        }
        return string.getString();
    }
}
