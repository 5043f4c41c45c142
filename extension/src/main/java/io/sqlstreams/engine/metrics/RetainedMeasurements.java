package io.sqlstreams.engine.metrics;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

import io.sqlstreams.Measurement;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.KeyQueries;
import io.sqlstreams.engine.query.StreamQueries;

/** Reads of {@code __system.metrics}, each in one autocommit unit, and its messages decoded as measurements. */
final class RetainedMeasurements {
    private final Engine engine;
    private final StreamQueries streams;

    RetainedMeasurements(Engine engine) {
        this.engine = engine;
        this.streams = new StreamQueries(engine.sql());
    }

    /** {@code read} on {@code __system.metrics} in one autocommit unit; empty while that stream does not exist. */
    <R> Optional<R> read(String what, StreamRead<R> read) {
        if (!engine.migrator().installed()) {
            return Optional.empty();
        }
        return engine.database().autoCommit(what, connection -> {
            Optional<Stream> stream = streams.find(connection, SystemStreams.METRICS);
            return stream.isEmpty() ? Optional.<R>empty() : Optional.of(read.apply(connection, stream.get().id()));
        });
    }

    Measurement decode(KeyQueries.KeyedMessage row) {
        return engine.codec().decode(row.payload(), MeasurementDocument.class).toMeasurement();
    }

    @FunctionalInterface
    interface StreamRead<R> {
        R apply(Connection connection, long streamId) throws SQLException;
    }
}
