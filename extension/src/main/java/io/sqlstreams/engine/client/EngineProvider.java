package io.sqlstreams.engine.client;

import javax.sql.DataSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.spi.SqlStreamsProvider;

/**
 * {@link SqlStreams#create} in Java SE: the engine with daemon threads, a handler pool the client owns, the
 * system clock and real sleeps.
 */
public final class EngineProvider implements SqlStreamsProvider {
    @Override
    public SqlStreams create(DataSource dataSource, ClientConfig config) {
        return EngineClient.standalone(dataSource, config);
    }
}
