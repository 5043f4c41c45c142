package io.sqlstreams.bench;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Function;
import java.util.stream.LongStream;

import io.sqlstreams.SchemaVersion;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;

/**
 * The payload of every measurement: an id, a send time and padding that brings its JSON-B form to about
 * {@value #TARGET_BYTES} bytes (exactly that for a seven-digit id; a byte less or more per digit).
 *
 * @param id           a sequence number within the run
 * @param sentAtMicros when it was made, in microseconds since the epoch
 * @param padding      filler
 */
@SchemaVersion(1)
public record BenchPayload(long id, long sentAtMicros, String padding) {
    static final int TARGET_BYTES = 1000;
    private static final long TYPICAL_ID = 1_000_000L;
    private static final String PADDING = "x".repeat(
            TARGET_BYTES - withJsonb(jsonb -> jsonb.toJson(new BenchPayload(TYPICAL_ID, nowMicros(), ""))).length());

    static BenchPayload next(long id) {
        return new BenchPayload(id, nowMicros(), PADDING);
    }

    /** A payload whose send time is {@code sentAtMicros} (a scheduled send time, from {@link BenchClock}). */
    static BenchPayload at(long id, long sentAtMicros) {
        return new BenchPayload(id, sentAtMicros, PADDING);
    }

    /** {@code count} payloads in their JSON-B form, for the raw-SQL baselines, which write JSON text. */
    static List<String> json(int count) {
        return withJsonb(jsonb -> LongStream.rangeClosed(TYPICAL_ID, TYPICAL_ID + count - 1)
                .mapToObj(id -> jsonb.toJson(next(id))).toList());
    }

    private static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    @SuppressWarnings("try") // Jsonb.close() is declared to throw Exception; Yasson's does not block
    private static <R> R withJsonb(Function<Jsonb, R> work) {
        try (Jsonb jsonb = JsonbBuilder.create()) {
            return work.apply(jsonb);
        } catch (Exception e) {
            throw new IllegalStateException("JSON-B is not usable: " + e.getMessage(), e);
        }
    }
}
