package io.sqlstreams.engine;

import java.time.Clock;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.engine.SessionCounterStore;
import io.sqlstreams.engine.binding.BindingDeclaration;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.telemetry.MessagingMeters;
import io.sqlstreams.engine.telemetry.Telemetry;
import io.sqlstreams.engine.schema.SchemaMigrator;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.wakeup.Wakeups;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/** Clients for engine tests: the test class's schema, destroy allowed, every diagnostic line recorded. */
public final class EngineFixtures {
    private EngineFixtures() {
    }

    public static EngineClient client(TestDatabase database, RecordingLogger logger) {
        return EngineClient.create(database.dataSource(), config(database, logger), EngineEnvironment.standalone());
    }

    /**
     * The parts a client of {@link #client} is made of, for tests that drive an engine class directly (a
     * collector pass, say); without wake-ups.
     */
    public static Engine engine(TestDatabase database, RecordingLogger logger) {
        ClientConfig config = config(database, logger);
        Clock clock = Clock.systemUTC();
        Diagnostics diagnostics = new Diagnostics(logger, clock);
        Database db = new Database(database.dataSource(), config.retry(), Sleeper.SYSTEM, diagnostics);
        Sql sql = new Sql(config.schema());
        String declarer = "engine-test";
        return new Engine(config, db, sql, new SchemaMigrator(db, sql), diagnostics, new PayloadCodec(),
                EngineEnvironment.standalone(), declarer, new BindingDeclaration(sql, diagnostics, clock, declarer),
                new RunningSessions(), Wakeups.disabled(), new SessionCounterStore(),
                Telemetry.of(config, MessagingMeters.NONE, diagnostics));
    }

    private static ClientConfig config(TestDatabase database, RecordingLogger logger) {
        return ClientConfig.builder().schema(database.schema()).allowDestroy(true).logger(logger).build();
    }
}
