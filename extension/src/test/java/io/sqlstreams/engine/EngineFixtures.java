package io.sqlstreams.engine;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/** Clients for engine tests: the test class's schema, destroy allowed, every diagnostic line recorded. */
public final class EngineFixtures {
    private EngineFixtures() {
    }

    public static EngineClient client(TestDatabase database, RecordingLogger logger) {
        return EngineClient.create(database.dataSource(),
                ClientConfig.builder().schema(database.schema()).allowDestroy(true).logger(logger).build(),
                EngineEnvironment.standalone());
    }
}
