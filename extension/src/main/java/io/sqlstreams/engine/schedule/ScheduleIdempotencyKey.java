package io.sqlstreams.engine.schedule;

import java.time.Instant;
import java.util.UUID;

/**
 * The idempotency key of a schedule's message for one due time, in the UUIDv7 layout: the due time's Unix
 * milliseconds in the 48 time bits, then the version (7) and variant bits, and the schedule's id packed verbatim
 * into the 74 bits a UUIDv7 leaves random (its top 12 bits after the version, its low 62 after the variant). No
 * hashing: two schedules, or two due times of one schedule, never share a key, and a replay of one due time
 * always has the same key.
 */
final class ScheduleIdempotencyKey {
    private static final long LOW_62_BITS = (1L << 62) - 1;

    private ScheduleIdempotencyKey() {
    }

    static UUID of(long scheduleId, Instant due) {
        long millis = due.toEpochMilli();
        long mostSignificant = (millis << 16) | (0x7L << 12) | ((scheduleId >>> 62) & 0xFFF);
        long leastSignificant = (0x2L << 62) | (scheduleId & LOW_62_BITS);
        return new UUID(mostSignificant, leastSignificant);
    }
}
