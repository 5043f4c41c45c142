package io.sqlstreams.engine.schedule;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.sqlstreams.CompactionOptions;
import io.sqlstreams.Concurrency;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.produce.EngineProducer;
import io.sqlstreams.engine.produce.EngineProducerHandle;
import io.sqlstreams.engine.query.StreamQueries;
import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

/**
 * Writes a schedule's message inside the caller's transaction: its stored payload at its stored schema version,
 * the schedule's name as routing key and message key, compacted (an unclaimed message is superseded by the next,
 * ranked by its {@code scheduledAt}), with the schedule's timeout and concurrency and the given {@code scheduledAt}.
 * One producer per stream and schema version is kept.
 */
final class ScheduledMessages {
    /** One message to write. */
    record Message(String schedule, long streamId, int schemaVersion, String payload, Concurrency concurrency,
                   Duration timeout, Instant scheduledAt, UUID idempotencyKey) {
    }

    private record Target(long streamId, int schemaVersion) {
    }

    private final Engine engine;
    private final StreamQueries streams;
    private final Map<Target, EngineProducer<JsonValue>> producers = new ConcurrentHashMap<>();

    ScheduledMessages(Engine engine) {
        this.engine = engine;
        this.streams = new StreamQueries(engine.sql());
    }

    ProduceResult produce(Connection connection, Message message) throws SQLException {
        EngineProducer<JsonValue> producer = producer(connection, message.streamId(), message.schemaVersion());
        Instant scheduledAt = message.scheduledAt().truncatedTo(ChronoUnit.MICROS);
        ProduceOptions options = ProduceOptions.builder()
                .routingKey(message.schedule())
                .messageKey(message.schedule())
                .compaction(CompactionOptions.withRank(ChronoUnit.MICROS.between(Instant.EPOCH, scheduledAt)))
                .idempotencyKey(message.idempotencyKey() == null ? null : message.idempotencyKey().toString())
                .message(MessageOptions.builder().concurrency(message.concurrency()).timeout(message.timeout())
                        .scheduledAt(scheduledAt).build())
                .build();
        return producer.produce(connection, payload(message.payload()), options);
    }

    private EngineProducer<JsonValue> producer(Connection connection, long streamId, int schemaVersion)
            throws SQLException {
        Target target = new Target(streamId, schemaVersion);
        EngineProducer<JsonValue> known = producers.get(target);
        if (known != null) {
            return known;
        }
        Stream stream = streams.find(connection, streamId).orElseThrow(() -> new IllegalStateException(
                "the stream of a locked schedule is gone"));
        return producers.computeIfAbsent(target,
                ignored -> EngineProducerHandle.forStoredPayloads(engine, stream, schemaVersion));
    }

    private static JsonValue payload(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }
}
