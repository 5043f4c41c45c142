package io.sqlstreams.cli;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.codec.DurationText;
import jakarta.json.Json;
import jakarta.json.JsonValue;

/**
 * One setting {@code stream config get} shows: its key, its value on a stream and its default (the value of a
 * stream registered with {@link StreamConfig#defaults()}). A retention of zero reads {@code forever}.
 */
enum StreamSetting {
    RETENTION_TTL("retention_ttl", stream -> retention(stream.retentionTtl()),
            retention(StreamConfig.defaults().resolvedRetentionTtl())),
    ALLOW_DROP_PAST_COMMITTED("allow_drop_past_committed",
            stream -> flag(stream.allowDropPastCommitted()),
            flag(StreamConfig.defaults().allowDropPastCommitted())),
    IDEMPOTENCY_KEY_TTL("idempotency_key_ttl", stream -> duration(stream.idempotencyKeyTtl()),
            duration(StreamConfig.defaults().resolvedIdempotencyKeyTtl())),
    EMPTY_COMPACTION_HEAD_TTL("empty_compaction_head_ttl", stream -> duration(stream.emptyCompactionHeadTtl()),
            duration(StreamConfig.defaults().resolvedEmptyCompactionHeadTtl())),
    DELIVERY_LOG_MODE("delivery_log_mode", stream -> Json.createValue(stream.deliveryLogMode().wireName()),
            Json.createValue(StreamConfig.defaults().resolvedDeliveryLogMode().wireName())),
    FENCE_WARN_AFTER("fence_warn_after", stream -> duration(stream.fenceWarnAfter()),
            duration(StreamConfig.defaults().resolvedFenceWarnAfter()));

    private static final String FOREVER = "forever";

    private final String key;
    private final Function<Stream, JsonValue> value;
    private final JsonValue defaultValue;

    StreamSetting(String key, Function<Stream, JsonValue> value, JsonValue defaultValue) {
        this.key = key;
        this.value = value;
        this.defaultValue = defaultValue;
    }

    String key() {
        return key;
    }

    JsonValue value(Stream stream) {
        return value.apply(stream);
    }

    JsonValue defaultValue() {
        return defaultValue;
    }

    static Optional<StreamSetting> named(String key) {
        return Arrays.stream(values()).filter(setting -> setting.key.equals(key)).findFirst();
    }

    /** The keys, comma-separated, as an error about an unknown key lists them. */
    static String keys() {
        return Arrays.stream(values()).map(StreamSetting::key).collect(Collectors.joining(", "));
    }

    private static JsonValue retention(Duration ttl) {
        return ttl.isZero() ? Json.createValue(FOREVER) : duration(ttl);
    }

    private static JsonValue flag(boolean on) {
        return on ? JsonValue.TRUE : JsonValue.FALSE;
    }

    private static JsonValue duration(Duration duration) {
        return Json.createValue(DurationText.format(duration));
    }
}
