package io.sqlstreams.engine.codec;

import io.sqlstreams.Concurrency;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.RetryPolicy;
import jakarta.json.Json;
import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonWriter;
import jakarta.json.JsonWriterFactory;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Map;

/**
 * The sparse JSON document of a {@link MessageOptions}, as stored in {@code message_log.options} and in
 * group declarations (digest §3.5), for example {@code {"timeout":"10s","retry":{"max_retries":5}}}.
 * Only set fields are written; durations use Go's spelling ({@link DurationText}) and
 * {@code scheduled_at} is an RFC 3339 UTC time.
 */
public final class OptionsDocument {

    private static final JsonBuilderFactory BUILDERS = Json.createBuilderFactory(Map.of());
    private static final JsonWriterFactory WRITERS = Json.createWriterFactory(Map.of());
    private static final DateTimeFormatter RFC_3339 = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .appendLiteral('Z')
            .toFormatter(Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private OptionsDocument() {
    }

    /**
     * The compact document of {@code options}, keys in the fixed order {@code concurrency},
     * {@code timeout}, {@code retry} ({@code max_retries}, {@code max_delays}, {@code base_delay},
     * {@code max_delay}, {@code exponent}), {@code scheduled_at}, so equal options give identical text.
     * Unset fields are left out, but a retry policy with no field set is written as {@code "retry":{}} to
     * keep it apart from no policy. {@code scheduled_at} carries as many fraction digits as it needs, as
     * Go's {@code RFC3339Nano} does.
     *
     * @return {@code null} for {@code null} options, {@code {}} for {@link MessageOptions#empty()}
     * @throws InvalidConfigurationException (SQL0108) naming the key of a duration beyond ±2<sup>63</sup> ns
     */
    public static String toJson(MessageOptions options) {
        JsonObject document = toObject(options);
        if (document == null) {
            return null;
        }
        StringWriter text = new StringWriter();
        try (JsonWriter writer = WRITERS.createWriter(text)) {
            writer.write(document);
        }
        return text.toString();
    }

    /** {@link #toJson} as a JSON object, for embedding in a larger document; {@code null} for {@code null}. */
    public static JsonObject toObject(MessageOptions options) {
        if (options == null) {
            return null;
        }
        JsonObjectBuilder document = BUILDERS.createObjectBuilder();
        if (options.concurrency() != null) {
            document.add("concurrency", options.concurrency().wireName());
        }
        addDuration(document, "timeout", "timeout", options.timeout());
        if (options.retry() != null) {
            document.add("retry", retryObject(options.retry()));
        }
        if (options.scheduledAt() != null) {
            document.add("scheduled_at", RFC_3339.format(options.scheduledAt()));
        }
        return document.build();
    }

    private static JsonObjectBuilder retryObject(RetryPolicy retry) {
        JsonObjectBuilder object = BUILDERS.createObjectBuilder();
        addInteger(object, "max_retries", retry.maxRetries());
        addInteger(object, "max_delays", retry.maxDelays());
        addDuration(object, "base_delay", "retry.base_delay", retry.baseDelay());
        addDuration(object, "max_delay", "retry.max_delay", retry.maxDelay());
        addInteger(object, "exponent", retry.exponent());
        return object;
    }

    private static void addInteger(JsonObjectBuilder object, String key, Integer value) {
        if (value != null) {
            object.add(key, value);
        }
    }

    private static void addDuration(JsonObjectBuilder object, String key, String path, Duration value) {
        if (value != null) {
            object.add(key, DurationText.formatStorable(path, value));
        }
    }

    /**
     * Reads a document written by {@link #toJson} or by another library version. Unknown keys are ignored so that
     * documents from newer versions still load, and a JSON {@code null} counts as unset. Values are
     * decoded, not validated: {@link MessageOptions#validate()} checks their rules.
     *
     * @return {@code null} for {@code null} text
     * @throws InvalidConfigurationException (SQL0108) when the text is not a JSON object ({@code options})
     *                                       or a value has the wrong type or cannot be read (its key path,
     *                                       for example {@code retry.base_delay})
     */
    public static MessageOptions fromJson(String json) {
        if (json == null) {
            return null;
        }
        return fromObject(DocumentFields.object("options", json));
    }

    /** {@link #fromJson} of an already parsed object. */
    public static MessageOptions fromObject(JsonObject object) {
        String concurrency = DocumentFields.string(object, "concurrency", "concurrency");
        return new MessageOptions(
                concurrency == null ? null : Concurrency.fromWireName(concurrency),
                DocumentFields.duration(object, "timeout", "timeout"),
                retry(DocumentFields.object(object, "retry", "retry")),
                instant(object, "scheduled_at"));
    }

    private static RetryPolicy retry(JsonObject object) {
        if (object == null) {
            return null;
        }
        return new RetryPolicy(
                DocumentFields.integer(object, "max_retries", "retry.max_retries"),
                DocumentFields.integer(object, "max_delays", "retry.max_delays"),
                DocumentFields.duration(object, "base_delay", "retry.base_delay"),
                DocumentFields.duration(object, "max_delay", "retry.max_delay"),
                DocumentFields.integer(object, "exponent", "retry.exponent"));
    }

    private static Instant instant(JsonObject object, String key) {
        String text = DocumentFields.string(object, key, key);
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException malformed) {
            throw DocumentFields.invalid(key, text, "must be an RFC 3339 time such as 2026-11-30T06:00:00Z");
        }
    }
}
