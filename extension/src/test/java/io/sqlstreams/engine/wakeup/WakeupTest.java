package io.sqlstreams.engine.wakeup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.AnnouncementListener;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

/**
 * Wake-up on produce between two clients of one installation (each with its own listener, as two processes
 * have): sessions poll once a minute here, so only an announcement can bring a message within the waits below.
 */
@PostgresTest
class WakeupTest {
    private static final ConsumeOptions POLL_ONCE_A_MINUTE = ConsumeOptions.builder()
            .claimPollRate(Duration.ofMinutes(1)).build();
    private static final Duration WITHIN_A_POLL = Duration.ofSeconds(20);

    @SchemaVersion(1)
    public record Ping(int n) {
    }

    private final List<AutoCloseable> opened = new ArrayList<>();
    private TestDatabase database;
    private RecordingLogger consumerLog;
    private EngineClient producing;
    private EngineClient consuming;

    @BeforeEach
    void twoClients(TestDatabase database) {
        this.database = database;
        this.consumerLog = new RecordingLogger();
        this.producing = open(EngineFixtures.client(database, new RecordingLogger()));
        this.consuming = open(EngineFixtures.client(database, consumerLog));
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @Test
    void anIdleSessionIsWokenByAnotherClientsCommit() {
        Set<Integer> handled = consume("wakeup.basic", consuming);
        try (Producer<Ping> producer = producing.stream("wakeup.basic", Ping.class).producer().register()) {
            for (int n = 1; n <= 3; n++) {
                int expected = n;
                producer.produce(new Ping(n));
                await().atMost(WITHIN_A_POLL).until(() -> handled.contains(expected));
            }
        }
        assertThat(producing.wakeups().announcementsSent()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void theListenerComesBackAfterItsBackendIsTerminatedAndNothingProducedMeanwhileIsLost() throws Exception {
        Set<Integer> handled = consume("wakeup.restart", consuming);
        try (Producer<Ping> producer = producing.stream("wakeup.restart", Ping.class).producer().register()) {
            assertThat(terminateListeners()).isPositive();
            producer.produce(new Ping(1));
            await().atMost(WITHIN_A_POLL).untilAsserted(() -> {
                assertThat(consumerLog.withCode("SQL0143")).hasSize(1);
                assertThat(consumerLog.withCode("SQL0144")).hasSize(1);
                assertThat(handled).contains(1);
            });
            await().atMost(WITHIN_A_POLL).until(() -> consuming.wakeups().listening());
            producer.produce(new Ping(2));
            await().atMost(WITHIN_A_POLL).until(() -> handled.contains(2));
        }
    }

    @Test
    void aHotProducerSendsAtMostOneAnnouncementPerSpacing() throws Exception {
        StreamHandle<Ping> stream = producing.stream("wakeup.hot", Ping.class);
        stream.register();
        int callers = 8;
        int perCaller = 400;
        try (AnnouncementListener listener = new AnnouncementListener(database);
             Producer<Ping> producer = stream.producer().register()) {
            long started = System.nanoTime();
            ExecutorService threads = Executors.newFixedThreadPool(callers);
            List<Future<?>> runs = new ArrayList<>();
            for (int caller = 0; caller < callers; caller++) {
                runs.add(threads.submit(() -> {
                    for (int n = 0; n < perCaller; n++) {
                        producer.produce(new Ping(n));
                    }
                }));
            }
            for (Future<?> run : runs) {
                run.get();
            }
            threads.shutdown();
            long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
            List<String> received = new ArrayList<>();
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                received.addAll(listener.receive(200));
                return producing.wakeups().announcementsSent() == received.size();
            });
            long bound = elapsedMillis / CommitAnnouncer.SPACING.toMillis() + 2;
            assertThat(received).isNotEmpty().hasSizeLessThanOrEqualTo((int) bound);
        }
    }

    @Test
    void aClientWithWakeupDisabledNeitherAnnouncesNorListens() throws Exception {
        EngineClient quiet = open(EngineClient.create(database.dataSource(), ClientConfig.builder()
                .schema(database.schema()).disableWakeup(true).logger(new RecordingLogger()).build(),
                EngineEnvironment.standalone()));
        StreamHandle<Ping> stream = quiet.stream("wakeup.quiet", Ping.class);
        stream.register();
        try (AnnouncementListener listener = new AnnouncementListener(database);
             Producer<Ping> producer = stream.producer().register()) {
            producer.produce(new Ping(1));
            try (ConsumerSession session = stream.consumer("g").register().start(ping -> {
            }, POLL_ONCE_A_MINUTE)) {
                assertThat(session.awaitStarted(Duration.ofSeconds(10))).isTrue();
                assertThat(quiet.wakeups().listening()).isFalse();
            }
            producer.produce(new Ping(2));
            assertThat(quiet.wakeups().announcementsSent()).isZero();
            assertThat(listener.receive(500)).isEmpty();
        }
    }

    @Test
    void aDataSourceThatCannotListenLogsSql0142OnceAndItsSessionsPoll() {
        RecordingLogger log = new RecordingLogger();
        EngineClient plain = open(EngineClient.create(notPgjdbc(database.dataSource()), ClientConfig.builder()
                .schema(database.schema()).logger(log).build(), EngineEnvironment.standalone()));
        Set<Integer> handled = ConcurrentHashMap.newKeySet();
        StreamHandle<Ping> stream = plain.stream("wakeup.plain", Ping.class);
        stream.register();
        ConsumerSession session = open(stream.consumer("g").register().start(ping -> handled.add(ping.n()),
                ConsumeOptions.builder().claimPollRate(Duration.ofMillis(100)).build()));
        await().atMost(WITHIN_A_POLL).until(() -> !log.withCode("SQL0142").isEmpty());
        try (Producer<Ping> producer = producing.stream("wakeup.plain", Ping.class).producer().register()) {
            producer.produce(new Ping(1));
        }
        await().atMost(WITHIN_A_POLL).until(() -> handled.contains(1));
        assertThat(log.withCode("SQL0142")).hasSize(1);
        assertThat(plain.wakeups().listening()).isFalse();
        assertThat(session.isRunning()).isTrue();
    }

    /** Starts a session of group "g" on {@code client} and waits until its client listens. */
    private Set<Integer> consume(String streamName, EngineClient client) {
        StreamHandle<Ping> stream = client.stream(streamName, Ping.class);
        stream.register();
        Set<Integer> handled = ConcurrentHashMap.newKeySet();
        open(stream.consumer("g").register().start(ping -> handled.add(ping.n()), POLL_ONCE_A_MINUTE));
        await().atMost(WITHIN_A_POLL).until(() -> client.wakeups().listening());
        return handled;
    }

    private int terminateListeners() throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement();
             var rows = statement.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                     + " WHERE query LIKE 'LISTEN sqlstreams_wakeup%' AND pid <> pg_backend_pid()")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** The data source, with connections that hide that they are pgjdbc's. */
    private static DataSource notPgjdbc(DataSource real) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object result = method.invoke(real, args);
                    if (!(result instanceof Connection connection)) {
                        return result;
                    }
                    return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                            (inner, call, callArgs) -> call.getName().equals("isWrapperFor") ? Boolean.FALSE
                                    : call.invoke(connection, callArgs));
                });
    }

    private <C extends AutoCloseable> C open(C closeable) {
        opened.add(closeable);
        return closeable;
    }
}
