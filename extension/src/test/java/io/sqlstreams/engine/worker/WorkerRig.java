package io.sqlstreams.engine.worker;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.random.RandomGenerator;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineThreads;
import io.sqlstreams.engine.Sleeper;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.schema.SchemaMigrator;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.telemetry.Telemetry;
import io.sqlstreams.engine.wakeup.Wakeups;
import io.sqlstreams.testing.ManualScheduler;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.SettableClock;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * What the worker tests share: an engine on the test class's schema (installed, so the system row exists) whose
 * lines are recorded and whose clock a {@link ManualScheduler} drives, system-owned worker rows made to order, and
 * reads of their instance rows and instance-log snapshots. Tests of other owners' workers (a stream's) claim
 * instances through its engine.
 */
public final class WorkerRig {
    static final Duration POLL_RATE = Duration.ofSeconds(10);
    public static final Duration TTL = Duration.ofMinutes(10);
    /** A curve short enough to exhaust in a test: 1s, 2s, 4s, then the cap of 5s from the fourth failure on. */
    static final RetryPolicy CURVE = RetryPolicy.builder().maxRetries(4).baseDelay(Duration.ofSeconds(1))
            .maxDelay(Duration.ofSeconds(5)).exponent(2).build();

    final RecordingLogger logger = new RecordingLogger();
    final SettableClock clock = SettableClock.standing();
    final ManualScheduler scheduler = new ManualScheduler(clock);
    public final Engine engine;
    final Sql sql;
    private final long systemId;

    public WorkerRig(TestDatabase database) {
        ClientConfig config = ClientConfig.builder().schema(database.schema()).logger(logger).build();
        Diagnostics diagnostics = new Diagnostics(logger, clock);
        Database db = new Database(database.dataSource(), config.retry(), Sleeper.SYSTEM, diagnostics);
        io.sqlstreams.engine.sql.Sql statements = new io.sqlstreams.engine.sql.Sql(database.schema());
        SchemaMigrator migrator = new SchemaMigrator(db, statements);
        this.engine = new Engine(config, db, statements, migrator, diagnostics, null,
                new EngineEnvironment(EngineThreads.daemons("worker-test-"), null, clock, Sleeper.SYSTEM),
                "worker-test", null, null, Wakeups.disabled(), null, Telemetry.OFF);
        this.systemId = migrator.ensureSystem();
        this.sql = new Sql(database);
    }

    static WorkerSettings settings() {
        return WorkerSettings.of(POLL_RATE).withInstanceTtl(TTL).withRetry(CURVE);
    }

    /** A new system-owned worker row with {@code target} instances; its id. */
    long worker(String name, int target) throws SQLException {
        return ((Number) sql.value("INSERT INTO {s}.worker_config (system_id, name, target_instances)"
                + " VALUES (?, ?, ?) RETURNING id", systemId, name, target)).longValue();
    }

    void setTarget(long workerId, int target) throws SQLException {
        sql.update("UPDATE {s}.worker_config SET target_instances = ? WHERE id = ?", target, workerId);
    }

    /** A runner on the manual scheduler, jittering with {@code random}. */
    WorkerRunner runner(long workerId, WorkerSettings settings, WorkerTask task, WorkerRunner.Owner owner,
                        RandomGenerator random) {
        WorkerRunner runner = new WorkerRunner(engine, workerId, "worker test-" + workerId, "test-" + workerId,
                settings.validated(), task, owner, scheduler, false, random);
        runner.begin();
        return runner;
    }

    long liveInstances(long workerId) throws SQLException {
        return sql.count("SELECT count(*) FROM {s}.worker_instance WHERE worker_id = ? AND expires_at > now()",
                workerId);
    }

    long instances(long workerId) throws SQLException {
        return sql.count("SELECT count(*) FROM {s}.worker_instance WHERE worker_id = ?", workerId);
    }

    int rowAttempts(long instanceId) throws SQLException {
        return ((Number) sql.value("SELECT attempts FROM {s}.worker_instance WHERE id = ?", instanceId)).intValue();
    }

    /** The attempts of every snapshot of the instance, oldest first. */
    List<Integer> loggedAttempts(long instanceId) throws SQLException {
        return sql.strings("SELECT attempts FROM {s}.worker_instance_log WHERE worker_instance_id = ? ORDER BY id",
                instanceId).stream().map(Integer::valueOf).toList();
    }

    void expire(long instanceId) throws SQLException {
        sql.update("UPDATE {s}.worker_instance SET expires_at = now() - interval '1 second' WHERE id = ?",
                instanceId);
    }
}
