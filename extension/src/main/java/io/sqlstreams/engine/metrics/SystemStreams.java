package io.sqlstreams.engine.metrics;

import java.time.Duration;
import java.util.Optional;

import io.sqlstreams.Stream;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.StreamQueries;

/** The library's own streams under {@code __system.}: registered by the library on first use, never by users. */
public final class SystemStreams {
    public static final String METRICS = Names.SYSTEM_PREFIX + "metrics";
    public static final Duration METRICS_RETENTION = Duration.ofHours(24);
    public static final String ALERTS = Names.SYSTEM_PREFIX + "alerts";
    public static final Duration ALERTS_RETENTION = Duration.ofDays(30);

    private SystemStreams() {
    }

    /** The system stream {@code name} when it is registered; empty before any installation too. */
    public static Optional<Stream> find(Engine engine, String name) {
        if (!engine.migrator().installed()) {
            return Optional.empty();
        }
        StreamQueries streams = new StreamQueries(engine.sql());
        return engine.database().autoCommit("reading stream \"" + name + "\"",
                connection -> streams.find(connection, name));
    }
}
