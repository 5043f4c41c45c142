package io.sqlstreams.engine.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import io.sqlstreams.Binding;
import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ManagerHandle;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.Schedule;
import io.sqlstreams.SchedulerHandle;
import io.sqlstreams.Stream;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.SystemHandle;
import io.sqlstreams.engine.Declarer;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.HostedClient;
import io.sqlstreams.engine.RunningSessions;
import io.sqlstreams.engine.SessionCounterStore;
import io.sqlstreams.engine.binding.BindingDeclaration;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.consume.EngineConsumerHandle;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.janitor.StreamJanitor;
import io.sqlstreams.engine.janitor.StreamJanitorWorker;
import io.sqlstreams.engine.manager.ManagerService;
import io.sqlstreams.engine.metrics.collector.SessionCounterWriter;
import io.sqlstreams.engine.produce.EngineProducerHandle;
import io.sqlstreams.engine.query.BindingQueries;
import io.sqlstreams.engine.query.ScheduleQueries;
import io.sqlstreams.engine.query.StreamQueries;
import io.sqlstreams.engine.schedule.EngineSchedulerHandle;
import io.sqlstreams.engine.schema.SchemaMigrator;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.stream.EngineStreamHandle;
import io.sqlstreams.engine.system.EngineSystemHandle;
import io.sqlstreams.engine.telemetry.MessagingMeters;
import io.sqlstreams.engine.telemetry.Telemetry;
import io.sqlstreams.engine.wakeup.Wakeups;

/**
 * The engine's client: a caller-owned data source plus the captured configuration. It owns the handler pool only
 * when it made it ({@link #standalone}); closing it stops its running sessions, its part in the system manager and its
 * wake-up, and shuts that pool down.
 */
public final class EngineClient implements HostedClient {
    private final Engine engine;
    private final ExecutorService ownedPool;
    private final ManagerService manager;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EngineClient(Engine engine, ExecutorService ownedPool) {
        this.engine = engine;
        this.ownedPool = ownedPool;
        this.manager = new ManagerService(engine);
        engine.sessions().accompanyBy(manager);
    }

    /**
     * Validates the configuration, checks that PostgreSQL answers, and returns the client. Nothing is created
     * in the database until the first registration. The environment stays the caller's: closing the client
     * leaves its executor and thread factory alone.
     */
    public static EngineClient create(DataSource dataSource, ClientConfig config, EngineEnvironment environment) {
        return create(dataSource, config, environment, MessagingMeters.NONE);
    }

    /** {@link #create(DataSource, ClientConfig, EngineEnvironment)} whose messaging metrics go to the host's own. */
    public static EngineClient create(DataSource dataSource, ClientConfig config, EngineEnvironment environment,
                                      MessagingMeters hostMeters) {
        return create(dataSource, config, environment, null, hostMeters);
    }

    /** A client on {@link EngineEnvironment#standalone()}, whose handler pool it owns and closes. */
    public static EngineClient standalone(DataSource dataSource, ClientConfig config) {
        EngineEnvironment environment = EngineEnvironment.standalone();
        try {
            return create(dataSource, config, environment, environment.handlerExecutor(), MessagingMeters.NONE);
        } catch (RuntimeException | Error refused) {
            environment.handlerExecutor().shutdownNow();
            throw refused;
        }
    }

    private static EngineClient create(DataSource dataSource, ClientConfig config, EngineEnvironment environment,
                                       ExecutorService ownedPool, MessagingMeters hostMeters) {
        Objects.requireNonNull(dataSource, "dataSource");
        ClientConfig resolved = config == null ? ClientConfig.defaults() : config;
        resolved.validate();
        Diagnostics diagnostics = new Diagnostics(resolved.logger(), environment.clock());
        Database database = new Database(dataSource, resolved.retry(), environment.sleeper(), diagnostics);
        Sql sql = new Sql(resolved.schema());
        database.autoCommit("connecting to PostgreSQL", connection -> connection.isValid(5));
        String declarer = Declarer.identify();
        Engine engine = new Engine(resolved, database, sql, new SchemaMigrator(database, sql), diagnostics,
                new PayloadCodec(), environment, declarer,
                new BindingDeclaration(sql, diagnostics, environment.clock(), declarer), new RunningSessions(),
                Wakeups.of(resolved, database, sql, diagnostics, environment), new SessionCounterStore(),
                Telemetry.of(resolved, hostMeters, diagnostics));
        engine.sessionCounters().connect(new SessionCounterWriter(engine));
        return new EngineClient(engine, ownedPool);
    }

    @Override
    public ClientConfig config() {
        return engine.config();
    }

    @Override
    public <T> StreamHandle<T> stream(String name, Class<T> payloadType) {
        return new EngineStreamHandle<>(engine, name, payloadType);
    }

    @Override
    public List<Stream> streams() {
        if (!engine.migrator().installed()) {
            return List.of();
        }
        StreamQueries rows = new StreamQueries(engine.sql());
        return engine.database().autoCommit("listing streams", rows::all);
    }

    @Override
    public List<Binding> bindings() {
        if (!engine.migrator().installed()) {
            return List.of();
        }
        BindingQueries queries = new BindingQueries(engine.sql());
        return engine.database().autoCommit("listing bindings", connection -> {
            List<Binding> bindings = new ArrayList<>();
            for (Stream stream : new StreamQueries(engine.sql()).all(connection)) {
                bindings.addAll(queries.ofStream(connection, stream));
            }
            return bindings;
        });
    }

    @Override
    public <T> HostedConsumer<T> registerConsumer(String stream, String group, Class<T> payloadType,
                                                  ConsumerConfig declaration) {
        return new EngineConsumerHandle<>(engine, stream, group, payloadType).register(declaration);
    }

    @Override
    public <T> HostedProducer<T> registerProducer(String stream, Class<T> payloadType) {
        return new EngineProducerHandle<>(engine, stream, payloadType).register(ProducerConfig.defaults());
    }

    @Override
    public SchedulerHandle scheduler(String name) {
        return new EngineSchedulerHandle(engine, name);
    }

    @Override
    public List<Schedule> schedules() {
        if (!engine.migrator().installed()) {
            return List.of();
        }
        ScheduleQueries rows = new ScheduleQueries(engine.sql());
        return engine.database().autoCommit("listing schedules", rows::all);
    }

    @Override
    public ManagerHandle manager() {
        return manager;
    }

    @Override
    public SystemHandle system() {
        return new EngineSystemHandle(engine);
    }

    /** The janitor's pass and the vacuum of any stream of this client, each run once per call. */
    public StreamJanitor janitor() {
        return new StreamJanitor(engine);
    }

    /** The runners of a stream's janitor and vacuum workers, started on this client's engine. */
    public StreamJanitorWorker janitorWorkers() {
        return new StreamJanitorWorker(engine);
    }

    /** This client's wake-up on produce. */
    public Wakeups wakeups() {
        return engine.wakeups();
    }

    @Override
    public Diagnostics diagnostics() {
        return engine.diagnostics();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        engine.sessions().stopAll();
        manager.close();
        engine.wakeups().close();
        if (ownedPool != null) {
            ownedPool.shutdownNow();
        }
    }
}
