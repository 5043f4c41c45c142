package io.sqlstreams.engine.produce;

import java.sql.Connection;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.ProducerHandle;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.alert.RegistrationAlertPass;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.query.DdlLockTimeout;
import io.sqlstreams.engine.query.StreamQueries;
import jakarta.json.JsonValue;

import java.math.BigInteger;
import java.time.Duration;
import java.util.List;

/** Resolves the stream and builds a producer for it. */
public final class EngineProducerHandle<T> implements ProducerHandle<T> {
    /** Per attempt, partition creation may wait out three DDL lock timeouts. */
    private static final Duration CREATE_AHEAD_ALLOWANCE = DdlLockTimeout.LIMIT.multipliedBy(3);

    private final Engine engine;
    private final String streamName;
    private final Class<T> payloadType;

    public EngineProducerHandle(Engine engine, String streamName, Class<T> payloadType) {
        this.engine = engine;
        this.streamName = streamName;
        this.payloadType = payloadType;
    }

    @Override
    public EngineProducer<T> register(ProducerConfig config) {
        ProducerConfig resolved = config == null ? ProducerConfig.defaults() : config;
        Names.resource("stream", streamName);
        resolved.validate();
        int schemaVersion = PayloadCodec.schemaVersion(payloadType);
        checkRetryBudget(engine.config().retry());
        if (!engine.migrator().installed()) {
            throw StreamQueries.notFound(streamName);
        }
        Stream stream = engine.database().autoCommit("resolving stream \"" + streamName + "\"", (Connection connection) -> {
            Stream found = new StreamQueries(engine.sql()).require(connection, streamName);
            engine.migrator().checkStream(connection, found.id(), streamName);
            return found;
        });
        RegistrationAlertPass.run(engine, streamName);
        return new EngineProducer<>(engine, stream, resolved, schemaVersion);
    }

    /**
     * A producer onto {@code stream} of payloads already stored as JSON, written at {@code schemaVersion}: a
     * schedule's payload, encoded once when the schedule was registered.
     */
    public static EngineProducer<JsonValue> forStoredPayloads(Engine engine, Stream stream, int schemaVersion) {
        return new EngineProducer<>(engine, stream, ProducerConfig.defaults(), schemaVersion);
    }

    private static void checkRetryBudget(RetryPolicy retry) {
        BigInteger total = BigInteger.valueOf(retry.calculateTotalDelay().toNanos())
                .add(BigInteger.valueOf(CREATE_AHEAD_ALLOWANCE.toNanos()).multiply(BigInteger.valueOf(retry.maxRetries())));
        if (total.compareTo(BigInteger.valueOf(Long.MAX_VALUE)) > 0) {
            throw new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(
                    "clientConfig.retry", retry, "retry sleeps plus " + CREATE_AHEAD_ALLOWANCE
                    + " of partition creation per attempt exceed the longest storable duration")));
        }
    }
}
