package io.sqlstreams.engine;

import org.junit.jupiter.api.BeforeEach;

import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * What engine test classes that work through one client share: the class's test database and, fresh for every
 * test, a client on its schema ({@link EngineFixtures#client}) whose log lines are recorded. Subclasses are
 * {@link PostgresTest} classes.
 */
public abstract class EngineTestBase {
    protected TestDatabase database;
    protected RecordingLogger logger;
    protected EngineClient client;

    @BeforeEach
    void connectClient(TestDatabase database) {
        this.database = database;
        this.logger = new RecordingLogger();
        this.client = EngineFixtures.client(database, logger);
    }
}
