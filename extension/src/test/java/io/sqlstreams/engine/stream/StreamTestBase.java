package io.sqlstreams.engine.stream;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.testing.RecordingLogger;

/**
 * What the stream tests share, besides an {@link EngineTestBase}'s database and client: a {@link SchemaProbe} on
 * the class's schema, and more clients where a test needs them.
 */
abstract class StreamTestBase extends EngineTestBase {
    protected SchemaProbe probe;

    @BeforeEach
    void openProbe() {
        this.probe = new SchemaProbe(database);
    }

    /** Another client on the class's schema, destroy allowed, with a logger of its own. */
    protected EngineClient newClient() {
        return EngineFixtures.client(database, new RecordingLogger());
    }

    /** A client on {@code schema} (an extra schema of the class, say), with a logger of its own. */
    protected EngineClient clientOn(String schema, boolean allowDestroy) {
        return clientOn(database.dataSource(), schema, allowDestroy, new RecordingLogger());
    }

    /** A client through {@code dataSource} on {@code schema}, logging to {@code logger}. */
    protected static EngineClient clientOn(DataSource dataSource, String schema, boolean allowDestroy,
                                           RecordingLogger logger) {
        return EngineClient.create(dataSource, ClientConfig.builder().schema(schema).allowDestroy(allowDestroy)
                .logger(logger).build(), EngineEnvironment.standalone());
    }
}
