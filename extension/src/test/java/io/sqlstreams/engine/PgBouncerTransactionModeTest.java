package io.sqlstreams.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.OptionalTool;
import io.sqlstreams.testing.PgBouncer;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.RequiresTools;
import io.sqlstreams.testing.TestDatabase;

/**
 * The engine through PgBouncer 1.18 in transaction mode (pgjdbc with {@code prepareThreshold=0}), where each
 * transaction may run on another server process: installation by two clients at once, producing from many threads
 * and in batches, two sessions consuming ordered keys with retries, and destroying the installation; wake-up is
 * refused (SQL0142) before any LISTEN, and no advisory lock outlives its transaction.
 */
@PostgresTest
@RequiresTools(OptionalTool.PGBOUNCER)
class PgBouncerTransactionModeTest {
    private static final int KEYS = 20;
    private static final int PER_KEY = 30;
    private static final int MESSAGES = KEYS * PER_KEY;

    @SchemaVersion(1)
    public record Step(String key, int seq) {
    }

    private final List<AutoCloseable> opened = new ArrayList<>();
    private TestDatabase database;
    private PgBouncer bouncer;

    @BeforeEach
    void startBouncer(TestDatabase database) throws Exception {
        this.database = database;
        this.bouncer = PgBouncer.start(3);
    }

    @AfterEach
    void stopAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        if (bouncer != null) {
            bouncer.close();
        }
    }

    @Test
    void theEngineRunsThroughTransactionPoolingAndFallsBackToPolling() throws Exception {
        String schema = database.extraSchema("bouncer");
        DataSource pooled = bouncer.dataSource(16);
        RecordingLogger firstLog = new RecordingLogger();
        RecordingLogger secondLog = new RecordingLogger();
        EngineClient first = open(client(pooled, schema, firstLog));
        EngineClient second = open(client(pooled, schema, secondLog));

        inParallel(List.of(() -> register(first), () -> register(second)));

        Map<String, List<Integer>> handled = new ConcurrentHashMap<>();
        Map<Integer, Integer> runs = new ConcurrentHashMap<>();
        List<ConsumerSession> sessions = List.of(
                open(startSession(first, handled, runs)), open(startSession(second, handled, runs)));

        try (Producer<Step> producer = first.stream("bouncer.steps", Step.class).producer().register()) {
            List<Callable<Void>> callers = new ArrayList<>();
            for (int k = 0; k < KEYS / 2; k++) {
                String key = "key-" + k;
                callers.add(() -> {
                    for (int seq = 0; seq < PER_KEY; seq++) {
                        producer.produce(new Step(key, seq), ordered(key));
                    }
                    return null;
                });
            }
            inParallel(callers);
            for (int k = KEYS / 2; k < KEYS; k++) {
                String key = "key-" + k;
                producer.produceBatch(IntStream.range(0, PER_KEY)
                        .mapToObj(seq -> ProduceItem.of(new Step(key, seq), ordered(key))).toList());
            }
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(handled.values().stream().mapToInt(List::size).sum()).isEqualTo(MESSAGES));
        for (int k = 0; k < KEYS; k++) {
            assertThat(handled.get("key-" + k)).as("key-%d in order, each once", k)
                    .containsExactlyElementsOf(IntStream.range(0, PER_KEY).boxed().toList());
        }
        assertThat(runs.values()).allSatisfy(count -> assertThat(count).isBetween(1, 2));
        long failedOnce = runs.keySet().stream().filter(id -> id % 25 == 0).count();
        assertThat(failedOnce).isPositive();
        assertThat(runs.values().stream().filter(count -> count == 2).count()).isEqualTo(failedOnce);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(first.stream("bouncer.steps", Step.class).consumer("g").inspect().committed())
                        .isEqualTo(MESSAGES));
        assertThat(sessions).allSatisfy(session -> assertThat(session.isRunning()).isTrue());

        for (RecordingLogger log : List.of(firstLog, secondLog)) {
            assertThat(log.withCode("SQL0142")).hasSize(1)
                    .allSatisfy(line -> assertThat(line).contains("through a pooler or proxy"));
        }
        assertThat(first.wakeups().listening()).isFalse();
        assertThat(second.wakeups().listening()).isFalse();

        sessions.forEach(ConsumerSession::close);
        first.system().destroy(DestroyOptions.forced());
        assertThat(schemaExists(schema)).isFalse();
        assertThat(advisoryLocksOfTheBouncer()).isZero();
    }

    /**
     * The per-stream fence through transaction pooling: an unrelated transaction holding an xid (on a direct
     * connection) holds nothing back, while a producer of this stream left open through the bouncer holds back the
     * messages committed after it until it commits; then everything arrives once, in id order.
     */
    @Test
    void theFenceWaitsOnlyForThisStreamsOpenProducersThroughTransactionPooling() throws Exception {
        String schema = database.extraSchema("bouncer_fence");
        DataSource pooled = bouncer.dataSource(8);
        EngineClient client = open(client(pooled, schema, new RecordingLogger()));
        StreamHandle<Step> stream = client.stream("bouncer.fence", Step.class);
        stream.register();
        List<Long> handled = new CopyOnWriteArrayList<>();
        open(stream.consumer("g").register().start(step -> handled.add(MessageMeta.current().messageId()),
                ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build()));

        try (Producer<Step> producer = stream.producer().register();
             Connection unrelated = database.dataSource().getConnection()) {
            unrelated.setAutoCommit(false);
            try (Statement statement = unrelated.createStatement()) {
                statement.execute("SELECT pg_current_xact_id()");
            }
            List<Long> early = producer.produceBatch(IntStream.range(0, 10)
                    .mapToObj(seq -> ProduceItem.of(new Step("early", seq))).toList())
                    .stream().map(ProduceResult::id).toList();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(handled).containsAll(early));

            long held;
            long visible;
            try (Connection producing = pooled.getConnection()) {
                producing.setAutoCommit(false);
                held = producer.produce(producing, new Step("held", 0), ProduceOptions.none()).id();
                visible = producer.produce(new Step("late", 0)).id();
                long streamId = stream.get().orElseThrow().id();
                await().atMost(Duration.ofSeconds(30)).until(() -> queryLong("SELECT count(*) FROM " + schema
                        + ".consumer_group_cursor_" + streamId + " WHERE pending_head >= " + visible
                        + " AND pending_xid IS NOT NULL") == 1);
                assertThat(handled).as("nothing past the open producer").doesNotContain(held, visible);
                producing.commit();
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(handled).contains(held, visible));
            assertThat(handled).as("each once, in id order").isSorted().doesNotHaveDuplicates();
            unrelated.rollback();
        }
    }

    private ConsumerSession startSession(EngineClient client, Map<String, List<Integer>> handled,
                                         Map<Integer, Integer> runs) {
        ConsumerConfig config = ConsumerConfig.builder()
                .exceptionInitialBackoff(Duration.ofMillis(10))
                .message(MessageOptions.builder()
                        .retry(RetryPolicy.builder().baseDelay(Duration.ofMillis(10)).maxDelay(Duration.ofMillis(20))
                                .build())
                        .build())
                .build();
        return client.stream("bouncer.steps", Step.class).consumer("g").register(config).start(step -> {
            int id = (int) MessageMeta.current().messageId();
            if (runs.merge(id, 1, Integer::sum) == 1 && id % 25 == 0) {
                throw new IllegalStateException("every 25th message fails its first run");
            }
            handled.computeIfAbsent(step.key(), key -> new CopyOnWriteArrayList<>()).add(step.seq());
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(50)).batchLimit(50).build());
    }

    private static ProduceOptions ordered(String key) {
        return ProduceOptions.builder().messageKey(key)
                .message(MessageOptions.builder().concurrency(Concurrency.ORDERED).build()).build();
    }

    private static Void register(EngineClient client) {
        client.stream("bouncer.steps", Step.class).register();
        return null;
    }

    private static EngineClient client(DataSource dataSource, String schema, RecordingLogger log) {
        return EngineClient.create(dataSource,
                ClientConfig.builder().schema(schema).allowDestroy(true).logger(log).build(),
                EngineEnvironment.standalone());
    }

    private static void inParallel(List<Callable<Void>> work) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(work.size());
        try {
            for (Future<Void> done : threads.invokeAll(work)) {
                done.get();
            }
        } finally {
            threads.shutdown();
        }
    }

    private boolean schemaExists(String schema) throws SQLException {
        return queryLong("SELECT count(*) FROM pg_namespace WHERE nspname = '" + schema + "'") > 0;
    }

    /** Advisory locks held by the server processes behind the bouncer (none of any other test class). */
    private long advisoryLocksOfTheBouncer() throws SQLException {
        return queryLong("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                + " WHERE l.locktype = 'advisory' AND a.application_name = '" + PgBouncer.APPLICATION_NAME + "'");
    }

    private long queryLong(String sql) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }
}
