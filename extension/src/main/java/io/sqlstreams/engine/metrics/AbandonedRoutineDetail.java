package io.sqlstreams.engine.metrics;

import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.TreeMap;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * The metadata of a session's {@code sqlstreams.consumer.session.abandoned} series, from which the metrics
 * collector derives the group gauges SQL0091–SQL0093: how many abandoned routines returned on their own and the
 * milliseconds they took in all (cumulative, like the counter itself), and for each live session sharing the series
 * how many are still running, as of its last flush. A session's outstanding routines stop counting
 * {@link #STALE_AFTER} after its last flush: a session that stopped flushing has stopped, and its host's threads
 * with it or soon after.
 *
 * @param cleared         abandoned routines that returned on their own
 * @param clearMillis     the milliseconds they took, from abandonment to return, summed
 * @param outstanding     by session id: its routines still running, and when it said so
 */
public record AbandonedRoutineDetail(long cleared, long clearMillis, Map<String, Outstanding> outstanding) {
    /** Three flush periods of a running session. */
    public static final Duration STALE_AFTER = Duration.ofSeconds(90);

    private static final AbandonedRoutineDetail NONE = new AbandonedRoutineDetail(0, 0, Map.of());

    /** A session's routines still running at {@code at}. */
    public record Outstanding(long count, Instant at) {
    }

    public AbandonedRoutineDetail {
        outstanding = Map.copyOf(outstanding);
    }

    /** What one session adds: routines cleared and their time since its last flush, and its outstanding count. */
    public static AbandonedRoutineDetail delta(long cleared, long clearMillis, String sessionId, long outstanding,
                                               Instant at) {
        return new AbandonedRoutineDetail(cleared, clearMillis, Map.of(sessionId, new Outstanding(outstanding, at)));
    }

    /** The detail a series' metadata holds; none when it holds nothing readable. */
    public static AbandonedRoutineDetail parse(String metadata) {
        if (metadata == null || metadata.isBlank()) {
            return NONE;
        }
        try (var reader = Json.createReader(new StringReader(metadata))) {
            JsonObject object = reader.readObject();
            Map<String, Outstanding> outstanding = new TreeMap<>();
            JsonObject sessions = object.getJsonObject("outstanding");
            if (sessions != null) {
                sessions.forEach((session, value) -> {
                    JsonObject entry = value.asJsonObject();
                    outstanding.put(session, new Outstanding(entry.getJsonNumber("count").longValue(),
                            Instant.parse(entry.getString("at"))));
                });
            }
            return new AbandonedRoutineDetail(number(object, "cleared"), number(object, "clear_latency_ms"),
                    outstanding);
        } catch (JsonException | ClassCastException | NullPointerException | DateTimeParseException unreadable) {
            return NONE;
        }
    }

    /**
     * This detail with a session's {@code delta} added at {@code now}: the cumulative figures summed, the session's
     * outstanding entry replaced (dropped at zero), and every entry stale at {@code now} dropped.
     */
    public AbandonedRoutineDetail plus(AbandonedRoutineDetail delta, Instant now) {
        Map<String, Outstanding> merged = new TreeMap<>();
        outstanding.forEach((session, entry) -> {
            if (fresh(entry, now)) {
                merged.put(session, entry);
            }
        });
        delta.outstanding.forEach((session, entry) -> {
            if (entry.count() > 0) {
                merged.put(session, entry);
            } else {
                merged.remove(session);
            }
        });
        return new AbandonedRoutineDetail(cleared + delta.cleared, clearMillis + delta.clearMillis, merged);
    }

    /** The routines still running at {@code now} by the sessions that flushed recently enough to say. */
    public long outstandingAt(Instant now) {
        return outstanding.values().stream().filter(entry -> fresh(entry, now)).mapToLong(Outstanding::count).sum();
    }

    public String toMetadata() {
        JsonObjectBuilder sessions = Json.createObjectBuilder();
        outstanding.forEach((session, entry) -> sessions.add(session, Json.createObjectBuilder()
                .add("count", entry.count()).add("at", entry.at().toString())));
        return Json.createObjectBuilder().add("cleared", cleared).add("clear_latency_ms", clearMillis)
                .add("outstanding", sessions).build().toString();
    }

    private static boolean fresh(Outstanding entry, Instant now) {
        return !entry.at().plus(STALE_AFTER).isBefore(now);
    }

    private static long number(JsonObject object, String key) {
        JsonValue value = object.get(key);
        return value instanceof JsonNumber number ? number.longValue() : 0;
    }
}
