package io.sqlstreams.bench;

import javax.sql.DataSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.engine.Declarer;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.RunningSessions;
import io.sqlstreams.engine.SessionCounterStore;
import io.sqlstreams.engine.binding.BindingDeclaration;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.schema.SchemaMigrator;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.telemetry.MessagingMeters;
import io.sqlstreams.engine.telemetry.Telemetry;
import io.sqlstreams.engine.wakeup.Wakeups;

/**
 * An engine of the extension over a data source of the harness's choosing, for driving one engine class directly
 * (a {@code MetricsCollector} pass): a client keeps its engine to itself, so this one is assembled from the
 * extension's public classes the way a client assembles its own, without wake-ups and with nothing running on it
 * but what the caller calls. Closing it shuts down its (unused) handler pool.
 *
 * @param engine the assembled engine
 */
record StandaloneEngine(Engine engine) implements AutoCloseable {

    static StandaloneEngine over(DataSource dataSource, ClientConfig config) {
        EngineEnvironment environment = EngineEnvironment.standalone();
        Diagnostics diagnostics = new Diagnostics(config.logger(), environment.clock());
        Database database = new Database(dataSource, config.retry(), environment.sleeper(), diagnostics);
        Sql sql = new Sql(config.schema());
        String declarer = Declarer.identify();
        return new StandaloneEngine(new Engine(config, database, sql, new SchemaMigrator(database, sql), diagnostics,
                new PayloadCodec(), environment, declarer,
                new BindingDeclaration(sql, diagnostics, environment.clock(), declarer), new RunningSessions(),
                Wakeups.disabled(), new SessionCounterStore(),
                Telemetry.of(config, MessagingMeters.NONE, diagnostics)));
    }

    @Override
    public void close() {
        engine.environment().handlerExecutor().shutdownNow();
    }
}
