package io.sqlstreams.engine.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.JanitorConfig;
import io.sqlstreams.ManagerConfig;
import io.sqlstreams.ManagerStatus;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.WorkerStatus;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * The system manager across several clients of one installation, each standing for a process: one holds the
 * {@code manager} worker at a time and runs the streams' janitors, another takes over when it stops or loses its
 * claim, the target dial (0, −1) is obeyed, and expired liveness rows are swept. Claims live 2 s (heartbeat every
 * second) and the manager row's poll rate is 200 ms, so every wait here is for a condition, bounded well above them.
 */
@PostgresTest
class ManagerServiceTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final ManagerConfig QUICK = new ManagerConfig(Duration.ofSeconds(2), null, null, null);

    @SchemaVersion(1)
    public record Tick(int n) {
    }

    private TestDatabase database;
    private Sql sql;
    private final List<EngineClient> clients = new ArrayList<>();
    private final List<RecordingLogger> loggers = new ArrayList<>();
    private final List<CompletableFuture<Void>> runs = new CopyOnWriteArrayList<>();
    /** A thread per run: the common pool may have one worker here, which a blocking run() would hold. */
    private final ExecutorService runThreads = Executors.newCachedThreadPool();

    @BeforeEach
    void install(TestDatabase database) throws SQLException {
        this.database = database;
        this.sql = new Sql(database);
        EngineClient first = client(config -> config);
        first.stream("mgr.a", Tick.class).register(StreamConfig.builder()
                .janitor(new JanitorConfig(Duration.ofMillis(200), null, null, null)).build());
        sql.update("DELETE FROM {s}.worker_instance");
        quickManager();
    }

    @AfterEach
    void stopEverything() {
        await().atMost(PATIENCE).until(() -> {
            clients.forEach(client -> client.manager().stop());
            return runs.stream().allMatch(CompletableFuture::isDone);
        });
        clients.forEach(EngineClient::close);
        runThreads.shutdownNow();
    }

    private EngineClient client(Function<ClientConfig.Builder, ClientConfig.Builder> settings) {
        RecordingLogger logger = new RecordingLogger();
        EngineClient client = EngineClient.create(database.dataSource(), settings.apply(ClientConfig.builder()
                .schema(database.schema()).logger(logger).manager(QUICK)).build(), EngineEnvironment.standalone());
        clients.add(client);
        loggers.add(logger);
        return client;
    }

    /** Runs the client's manager on a thread of its own until the test stops it. */
    private void run(EngineClient client) {
        runs.add(CompletableFuture.runAsync(() -> client.manager().run(), runThreads));
    }

    /** Makes sure the manager row exists, then sets its poll rate to 200 ms and its target to 1. */
    private void quickManager() throws SQLException {
        EngineClient probe = clients.get(0);
        run(probe);
        await().atMost(PATIENCE).until(() -> managerRow() > 0);
        probe.manager().stop();
        runs.forEach(CompletableFuture::join);
        runs.clear();
        sql.update("UPDATE {s}.worker_config SET metadata = '{\"poll_rate\": \"200ms\"}', target_instances = 1"
                + " WHERE system_id IS NOT NULL AND name = 'manager'");
    }

    private long managerRow() throws SQLException {
        return sql.count("SELECT count(*) FROM {s}.worker_config WHERE system_id IS NOT NULL AND name = 'manager'");
    }

    private long live(String worker) throws SQLException {
        return sql.count("SELECT count(*) FROM {s}.worker_instance i JOIN {s}.worker_config w ON w.id = i.worker_id"
                + " WHERE w.name = ? AND i.expires_at > now()", worker);
    }

    /** Live instances of the janitor of stream mgr.a (the metrics collector's system stream has one too). */
    private long liveJanitor() throws SQLException {
        return sql.count("SELECT count(*) FROM {s}.worker_instance i JOIN {s}.worker_config w ON w.id = i.worker_id"
                + " JOIN {s}.stream_config s ON s.id = w.stream_id"
                + " WHERE w.name = 'stream_janitor' AND s.name = 'mgr.a' AND i.expires_at > now()");
    }

    private List<EngineClient> holders() {
        return clients.stream().filter(client -> client.manager().status().state() == ManagerStatus.State.HOLDING)
                .toList();
    }

    @Test
    void runOnASchemaWithoutAnInstallationFailsWithSql0017() {
        EngineClient elsewhere = EngineClient.create(database.dataSource(), ClientConfig.builder()
                .schema(database.extraSchema("absent")).logger(new RecordingLogger()).build(),
                EngineEnvironment.standalone());
        clients.add(elsewhere);

        assertThatThrownBy(() -> elsewhere.manager().run()).isInstanceOf(SqlStreamsException.class)
                .satisfies(failure -> assertThat(((SqlStreamsException) failure).code()).isEqualTo(Code.SQL0017));
        assertThat(elsewhere.manager().status().state()).isEqualTo(ManagerStatus.State.STOPPED);
    }

    @Test
    void oneOfThreeProcessesHoldsTheManagerAndRunsTheStreamsJanitorAndAnotherTakesOverWhenItStops()
            throws SQLException {
        client(config -> config);
        client(config -> config);
        clients.forEach(this::run);

        await().atMost(PATIENCE).until(() -> holders().size() == 1 && liveJanitor() == 1);
        assertThat(live("manager")).isEqualTo(1);
        EngineClient holder = holders().get(0);
        assertThat(holder.manager().status().workersRunning()).isGreaterThanOrEqualTo(2);
        assertThat(clients).filteredOn(client -> client != holder)
                .allSatisfy(client -> assertThat(client.manager().status().state())
                        .isEqualTo(ManagerStatus.State.WAITING));

        holder.manager().stop();
        await().atMost(PATIENCE).until(() -> holder.manager().status().state() == ManagerStatus.State.STOPPED);
        await().atMost(PATIENCE).until(() -> holders().size() == 1 && holders().get(0) != holder
                && liveJanitor() == 1);
        assertThat(live("manager")).isEqualTo(1);
        assertThat(holders().get(0).manager().status().workersRunning()).as("the new holder runs the workers")
                .isGreaterThanOrEqualTo(2);
        assertThat(holder.manager().status().state()).isEqualTo(ManagerStatus.State.STOPPED);
    }

    @Test
    void aHolderWhoseClaimWasRemovedStopsItsWorkersAndTheClaimPassesOn() throws SQLException {
        EngineClient second = client(config -> config);
        run(clients.get(0));
        await().atMost(PATIENCE).until(() -> holders().size() == 1);
        run(second);
        EngineClient holder = holders().get(0);
        int holderIndex = clients.indexOf(holder);

        sql.update("DELETE FROM {s}.worker_instance i USING {s}.worker_config w WHERE w.id = i.worker_id"
                + " AND w.name = 'manager'");

        await().atMost(PATIENCE).until(() -> !loggers.get(holderIndex).withCode("SQL0065").isEmpty());
        assertThat(loggers.get(holderIndex).withCode("SQL0034")).isNotEmpty();
        await().atMost(PATIENCE).until(() -> holders().size() == 1 && live("manager") == 1
                && liveJanitor() == 1);
    }

    @Test
    void targetZeroSuspendsTheManagerEverywhereAndMinusOneLetsEveryProcessHoldIt() throws SQLException {
        EngineClient second = client(config -> config);
        sql.update("UPDATE {s}.worker_config SET target_instances = 0 WHERE name = 'manager'");
        clients.forEach(this::run);

        await().atMost(PATIENCE).until(() -> clients.stream().allMatch(client ->
                client.manager().status().state() == ManagerStatus.State.SUSPENDED));
        assertThat(loggers).allSatisfy(logger -> assertThat(logger.withCode("SQL0035")).hasSize(1));
        assertThat(live("manager")).isZero();
        assertThat(liveJanitor()).isZero();

        sql.update("UPDATE {s}.worker_config SET target_instances = -1 WHERE name = 'manager'");
        await().atMost(PATIENCE).until(() -> holders().size() == 2 && live("manager") == 2);
        assertThat(liveJanitor()).as("the janitor's own target still holds").isEqualTo(1);

        sql.update("UPDATE {s}.worker_config SET target_instances = 0 WHERE name = 'manager'");
        await().atMost(PATIENCE).until(() -> live("manager") == 0 && holders().isEmpty() && liveJanitor() == 0);
        assertThat(second.manager().status().state()).isEqualTo(ManagerStatus.State.SUSPENDED);
    }

    @Test
    void theHolderSweepsExpiredInstanceRowsAndHistoryPastTheLogTtl() throws SQLException {
        long vacuum = sql.count("SELECT w.id FROM {s}.worker_config w JOIN {s}.stream_config s ON s.id = w.stream_id"
                + " WHERE w.name = 'stream_vacuum' AND s.name = 'mgr.a'");
        sql.update("INSERT INTO {s}.worker_instance (worker_id, expires_at) VALUES (?, now() - interval '1 minute')",
                vacuum);
        sql.update("INSERT INTO {s}.worker_instance_log (worker_instance_id, worker_id, token, expires_at, attempts,"
                + " created_at) VALUES (0, ?, gen_random_uuid(), now() - interval '25 hours', 0, now() - interval"
                + " '26 hours'), (0, ?, gen_random_uuid(), now() - interval '23 hours', 0, now() - interval"
                + " '24 hours')", vacuum, vacuum);

        run(clients.get(0));

        await().atMost(PATIENCE).until(() -> sql.count("SELECT count(*) FROM {s}.worker_instance WHERE worker_id = ?",
                vacuum) == 0 && sql.count("SELECT count(*) FROM {s}.worker_instance_log WHERE worker_id = ?"
                + " AND expires_at < now() - interval '24 hours'", vacuum) == 0);
        assertThat(sql.count("SELECT count(*) FROM {s}.worker_instance_log WHERE worker_id = ?", vacuum))
                .as("history younger than the log TTL stays").isEqualTo(1);
    }

    @Test
    void aConsumeSessionRunsTheManagerBesideItUnlessTheClientDisablesIt() throws SQLException {
        EngineClient disabled = client(config -> config.disableManager(true));
        EngineClient enabled = client(config -> config);
        disabled.stream("mgr.a", Tick.class).register(StreamConfig.defaults());
        ConsumerSession quiet = disabled.registerConsumer("mgr.a", "quiet", Tick.class, ConsumerConfig.defaults())
                .start(message -> { }, ConsumeOptions.defaults());
        try {
            assertThat(disabled.manager().status().state()).isEqualTo(ManagerStatus.State.DISABLED);
            ConsumerSession session = enabled.registerConsumer("mgr.a", "busy", Tick.class, ConsumerConfig.defaults())
                    .start(message -> { }, ConsumeOptions.defaults());
            await().atMost(PATIENCE).until(() -> enabled.manager().status().state() == ManagerStatus.State.HOLDING
                    && liveJanitor() == 1);
            session.close();
            assertThat(enabled.manager().status().state()).isEqualTo(ManagerStatus.State.STOPPED);
            assertThat(live("manager")).isZero();
        } finally {
            quiet.close();
        }
    }

    @Test
    void aSuspendedJanitorStopsWithinAHeartbeatAndTheManagerStartsItAgainOnceUnsuspended() throws SQLException {
        run(clients.get(0));
        await().atMost(PATIENCE).until(() -> liveJanitor() == 1);
        StreamHandle<Tick> stream = clients.get(0).stream("mgr.a", Tick.class);

        stream.janitor().suspend();
        await().atMost(PATIENCE).until(() -> liveJanitor() == 0);
        assertThat(loggers.get(0).withCode("SQL0107")).anySatisfy(line -> assertThat(line).contains("stream_janitor"));

        stream.janitor().unsuspend();
        await().atMost(PATIENCE).until(() -> liveJanitor() == 1);
        assertThat(stream.janitor().status().status()).isEqualTo(WorkerStatus.CLAIMED);
    }

    @Test
    void theBindingJanitorDeletesWaitingDeclarationsSupersededMoreThanAWeekAgo() throws SQLException {
        EngineClient client = clients.get(0);
        client.stream("mgr.a", Tick.class).consumer("audited").register();
        long streamId = client.stream("mgr.a", Tick.class).get().orElseThrow().id();
        long groupId = sql.count("SELECT id FROM {s}.consumer_group_config WHERE name = 'audited'");
        String log = "{s}.binding_config_log_" + streamId;
        sql.update("INSERT INTO " + log + " (consumer_group_id, status, patterns, declared_by, declared_at,"
                + " attempted_at) VALUES"
                + " (?, 'waiting', '{a.*}', 'old', now() - interval '9 days', now() - interval '9 days'),"
                + " (?, 'waiting', '{b.*}', 'recent', now() - interval '2 days', now() - interval '2 days'),"
                + " (?, 'waiting', '{c.*}', 'newest', now() - interval '8 days', now() - interval '8 days')",
                groupId, groupId, groupId);
        sql.update("UPDATE " + log + " SET id = id + 1000 WHERE declared_by = 'newest'");

        run(client);

        await().atMost(PATIENCE).until(() -> sql.count("SELECT count(*) FROM " + log + " WHERE declared_by = 'old'")
                == 0);
        assertThat(sql.strings("SELECT declared_by FROM " + log + " WHERE status = 'waiting' ORDER BY id"))
                .as("a recent superseded one and the group's newest stay").containsExactly("recent", "newest");
    }
}
