package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.AlreadyConsumingException;
import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.Sleeper;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Work;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * Who owns a session's threads (issue 13 §4): a session takes threads from the host's factory only once it begins,
 * and every thread it took has ended after it stops, after a begin that failed part way, and after a refused
 * second start, which takes none.
 */
@PostgresTest
class SessionThreadOwnershipTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final RecordingLogger logger = new RecordingLogger();
    private final CountingThreads threads = new CountingThreads();
    private final ExecutorService handlerPool = Executors.newCachedThreadPool();
    private final Ledger ledger = new Ledger();
    private Sql sql;
    private StreamHandle<Numbered> stream;
    private ConsumerInstance<Numbered> instance;

    @BeforeEach
    void setUp(TestDatabase database) {
        sql = new Sql(database);
        EngineClient client = EngineClient.create(database.dataSource(),
                ClientConfig.builder().schema(database.schema()).allowDestroy(true).logger(logger).build(),
                new EngineEnvironment(threads, handlerPool, Clock.systemUTC(), Sleeper.SYSTEM));
        stream = client.stream("ownership." + System.nanoTime(), Numbered.class);
        stream.register();
        instance = stream.consumer("owned").register();
    }

    @AfterEach
    void tearDown() {
        instance.stop();
        handlerPool.shutdownNow();
    }

    @Test
    void aRefusedSecondStartTakesNoThreadAndEveryThreadEndsAfterTheStop() throws Exception {
        ConsumerSession session = instance.start(ledger.handler("owner", Work.SUCCEED), fastSession().build());
        assertThat(session.awaitStarted(WAIT)).isTrue();
        long id;
        try (var producer = stream.producer().register()) {
            id = producer.produce(new Numbered(1)).id();
        }
        ledger.awaitFirstRun(1, WAIT);
        await().alias("the range committed (the recorder thread exists)").atMost(WAIT)
                .until(() -> stream.consumer("owned").inspect().committed() >= id);
        int taken = threads.made.size();
        assertThat(taken).as("threads of the running session").isPositive();

        Throwable refused = catchThrowable(() -> instance.start(ledger.handler("second", Work.SUCCEED),
                fastSession().build()));

        assertThat(refused).isInstanceOfSatisfying(AlreadyConsumingException.class,
                already -> assertThat(already.code()).isEqualTo(Code.SQL0001));
        assertThat(threads.made).as("the refused start took no thread").hasSize(taken);
        session.close();
        await().alias("every thread the session took has ended").atMost(WAIT)
                .until(() -> threads.alive().isEmpty());
        assertThat(threads.made).as("and none was taken since").hasSize(taken);
    }

    /** The host stops handing out threads half way through the begin: what it started is stopped again. */
    @Test
    void aBeginThatFailsPartWayEndsEveryThreadItTookAndReleasesItsRows() throws Exception {
        threads.refuseAfter(3);

        Throwable refused = catchThrowable(() -> instance.start(ledger.handler("half", Work.SUCCEED),
                fastSession().build()));

        assertThat(refused).isInstanceOf(IllegalStateException.class).hasMessage(CountingThreads.REFUSAL);
        assertThat(threads.made).as("the loops started before the refusal").hasSize(3);
        await().alias("every thread the session took has ended").atMost(WAIT)
                .until(() -> threads.alive().isEmpty());
        assertThat(sql.count("SELECT count(*) FROM {s}.worker_instance")).as("liveness rows released").isZero();
        assertThat(logger.withCode("SQL0041")).hasSize(1);

        threads.refuseAfter(Integer.MAX_VALUE);
        ConsumerSession again = instance.start(ledger.handler("whole", Work.SUCCEED), fastSession().build());
        assertThat(again.awaitStarted(WAIT)).as("the instance is free to start again").isTrue();
    }

    /** A host thread factory that records every thread it makes and can refuse to make more. */
    private static final class CountingThreads implements ThreadFactory {
        static final String REFUSAL = "the host hands out no more threads";
        final List<Thread> made = new CopyOnWriteArrayList<>();
        private volatile int limit = Integer.MAX_VALUE;

        void refuseAfter(int more) {
            limit = more == Integer.MAX_VALUE ? more : made.size() + more;
        }

        @Override
        public Thread newThread(Runnable task) {
            if (made.size() >= limit) {
                throw new IllegalStateException(REFUSAL);
            }
            Thread thread = new Thread(task);
            thread.setDaemon(true);
            made.add(thread);
            return thread;
        }

        List<Thread> alive() {
            return made.stream().filter(Thread::isAlive).toList();
        }
    }
}
