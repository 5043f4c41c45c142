package io.sqlstreams.engine.metrics.collector;

import java.time.Duration;

import io.sqlstreams.Stream;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.SystemStreams;
import io.sqlstreams.engine.stream.StreamDeclaration;

/** Registers one of the library's own {@code __system.} streams the first time something records on it. */
public final class SystemStreamDeclaration {
    private SystemStreamDeclaration() {
    }

    public static Stream ensure(Engine engine, String name, Duration retention) {
        return SystemStreams.find(engine, name).orElseGet(() -> new StreamDeclaration(engine.database(),
                engine.sql(), engine.migrator(), engine.diagnostics(), engine.declarer())
                .register(name, StreamConfig.builder().retentionTtl(retention).build()));
    }
}
