package io.sqlstreams.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.ConsumeFixtures;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * {@link SqlStreams#close()} (issue 13 §4): it stops the client's running sessions and shuts down the handler pool
 * it made itself; the caller's data source, and an executor the caller handed in, stay usable.
 */
@PostgresTest
class ClientCloseTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void closeStopsTheSessionsAndTheClientsOwnPoolAndLeavesTheDataSourceUsable(TestDatabase database)
            throws Exception {
        RecordingLogger logger = new RecordingLogger();
        SqlStreams client = SqlStreams.create(database.dataSource(),
                ClientConfig.builder().schema(database.schema()).logger(logger).build());
        StreamHandle<Numbered> stream = client.stream("close.own-pool", Numbered.class);
        stream.register();
        AtomicReference<Thread> handlerThread = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        ConsumerSession session = stream.consumer("closing").register().start(message -> {
            handlerThread.set(Thread.currentThread());
            ran.countDown();
        }, ConsumeFixtures.fastSession().build());
        try (Producer<Numbered> producer = stream.producer().register()) {
            producer.produce(new Numbered(1));
        }
        assertThat(ran.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the handler ran").isTrue();

        client.close();

        assertThat(session.isRunning()).as("the close stopped the session").isFalse();
        assertThat(logger.withCode("SQL0041")).hasSize(1);
        await().alias("the pool thread that ran the handler ended").atMost(WAIT)
                .until(() -> !handlerThread.get().isAlive());
        client.close();
        try (Connection connection = database.dataSource().getConnection()) {
            assertThat(connection.isValid(5)).as("the data source still hands out connections").isTrue();
        }
        assertThat(new Sql(database).count("SELECT count(*) FROM {s}.stream_config WHERE name = 'close.own-pool'"))
                .isEqualTo(1);
    }

    @Test
    void closeLeavesAnExecutorTheCallerHandedInRunning(TestDatabase database) {
        ExecutorService callers = Executors.newSingleThreadExecutor();
        try {
            EngineClient client = EngineClient.create(database.dataSource(),
                    ClientConfig.builder().schema(database.schema()).logger(new RecordingLogger()).build(),
                    new EngineEnvironment(EngineThreads.daemons("close-test-"), callers, Clock.systemUTC(),
                            Sleeper.SYSTEM));

            client.close();

            assertThat(callers.isShutdown()).isFalse();
        } finally {
            callers.shutdownNow();
        }
    }
}
