package io.sqlstreams.engine.produce;

import static io.sqlstreams.engine.produce.LogRows.claimed;
import static io.sqlstreams.engine.produce.LogRows.claims;
import static io.sqlstreams.engine.produce.LogRows.messages;
import static io.sqlstreams.engine.produce.LogRows.uuidV5;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.Stream;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;

/**
 * The idempotency claims a produce writes: one for the whole batch of the messages that came without a caller's key,
 * one per caller's key, and what a batch retried after a lost commit acknowledgement answers.
 */
@PostgresTest
class BatchIdempotencyTest extends ProduceTestBase {

    @SchemaVersion(1)
    public record Note(String marker) {
    }

    private Stream register(String name) {
        return client.stream(name, Note.class).register();
    }

    private static List<ProduceItem<Note>> minted(String prefix, int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> ProduceItem.of(new Note(prefix + i))).toList();
    }

    private static ProduceItem<Note> keyed(String marker, String key) {
        return ProduceItem.of(new Note(marker), ProduceOptions.builder().idempotencyKey(key).build());
    }

    /** How many times each marker is on the stream's log. */
    private Map<String, Long> ledger(Stream stream) throws SQLException {
        Map<String, Long> logged = new ConcurrentHashMap<>();
        for (List<Object> row : sql.rows("SELECT payload ->> 'marker', count(*) FROM {s}.message_log_" + stream.id()
                + " GROUP BY 1")) {
            logged.put((String) row.get(0), (Long) row.get(1));
        }
        return logged;
    }

    @Test
    void aBatchWithoutCallerKeysWritesOneClaimAndEveryMessage() throws SQLException {
        Stream stream = register("idem.batch.minted");
        Producer<Note> producer = producer("idem.batch.minted", Note.class);
        long claimsBefore = claims(database, stream.id());

        List<ProduceResult> results = producer.produceBatch(minted("m", 7));

        assertThat(results).hasSize(7).noneMatch(ProduceResult::duplicate)
                .extracting(ProduceResult::id).doesNotHaveDuplicates().allMatch(id -> id > 0);
        assertThat(messages(database, stream.id())).isEqualTo(7);
        assertThat(claims(database, stream.id()) - claimsBefore).as("one claim for the batch").isEqualTo(1);
        assertThat(sql.count("SELECT count(*) FROM {s}.idempotency_key_" + stream.id()
                + " WHERE substr(idempotency_key::text, 15, 1) = '7'")).as("the batch key is a UUIDv7").isEqualTo(1);
    }

    @Test
    void callerKeysKeepOneClaimEachAndARepeatIsADuplicate() throws SQLException {
        Stream stream = register("idem.batch.keyed");
        Producer<Note> producer = producer("idem.batch.keyed", Note.class);

        List<ProduceResult> first = producer.produceBatch(List.of(keyed("a", "order-a"), keyed("b", "order-b"),
                keyed("c", "order-c")));
        List<ProduceResult> again = producer.produceBatch(List.of(keyed("b2", "order-b"), keyed("d", "order-d")));

        assertThat(first).noneMatch(ProduceResult::duplicate);
        assertThat(again.get(0)).isEqualTo(new ProduceResult(0, true));
        assertThat(again.get(1).duplicate()).isFalse();
        assertThat(producer.produce(new Note("c2"), ProduceOptions.builder().idempotencyKey("order-c").build()))
                .isEqualTo(new ProduceResult(0, true));
        assertThat(claims(database, stream.id())).as("one claim per caller's key").isEqualTo(4);
        assertThat(claimed(database, stream.id(), uuidV5("order-d"))).isTrue();
        assertThat(ledger(stream)).containsOnlyKeys("a", "b", "c", "d");
    }

    @Test
    void aMixedBatchClaimsEachCallerKeyAndTheBatchKey() throws SQLException {
        Stream stream = register("idem.batch.mixed");
        Producer<Note> producer = producer("idem.batch.mixed", Note.class);
        producer.produce(new Note("earlier"), ProduceOptions.builder().idempotencyKey("order-1").build());
        long claimsBefore = claims(database, stream.id());

        List<ProduceResult> results = producer.produceBatch(List.of(ProduceItem.of(new Note("m1")),
                keyed("k1", "order-1"), keyed("k2", "order-2"), ProduceItem.of(new Note("m2")),
                keyed("k3", "order-3"), keyed("k2-again", "order-2"), ProduceItem.of(new Note("m3"))));

        assertThat(results).extracting(ProduceResult::duplicate)
                .containsExactly(false, true, false, false, false, true, false);
        assertThat(claims(database, stream.id()) - claimsBefore).as("order-2, order-3 and the batch key")
                .isEqualTo(3);
        assertThat(ledger(stream)).containsOnlyKeys("earlier", "m1", "k2", "m2", "k3", "m3")
                .allSatisfy((marker, count) -> assertThat(count).isEqualTo(1));
        assertThat(results.get(0).id()).isLessThan(results.get(2).id());
    }

    /**
     * The produce statement's first executions commit and then lose their answer, as a connection dropped between
     * the commit and its acknowledgement does (SQLState 08006). The writer retries with the same keys: a retried
     * batch finds its batch key (and its caller keys) claimed, writes nothing twice and answers its messages as the
     * duplicates of their first attempt, each caller once.
     */
    @Test
    void aBatchRetriedAfterALostCommitAcknowledgementIsStoredOnce() throws Exception {
        Stream stream = register("idem.batch.lost");
        AtomicInteger toLose = new AtomicInteger(1);
        EngineClient lossy = clientWithRetries(losingAcknowledgements(database.dataSource(), toLose), 5,
                Duration.ofMillis(10), Duration.ofMillis(20));
        Producer<Note> producer = producer(lossy, "idem.batch.lost", Note.class, ProducerConfig.defaults());

        List<ProduceResult> batch = producer.produceBatch(List.of(ProduceItem.of(new Note("m1")),
                keyed("k1", "order-1"), ProduceItem.of(new Note("m2"))));

        assertThat(toLose.get()).as("the acknowledgement was lost").isNegative();
        assertThat(batch).containsOnly(new ProduceResult(0, true));
        assertThat(claims(database, stream.id())).isEqualTo(2);
        assertThat(ledger(stream)).containsOnlyKeys("m1", "k1", "m2")
                .allSatisfy((marker, count) -> assertThat(count).isEqualTo(1));

        toLose.set(3);
        ExecutorService callers = Executors.newFixedThreadPool(8);
        Map<String, List<ProduceResult>> answers = new ConcurrentHashMap<>();
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                String marker = "auto" + i;
                calls.add(CompletableFuture.runAsync(() -> answers.computeIfAbsent(marker, m -> new ArrayList<>())
                        .add(producer.produce(new Note(marker))), callers));
            }
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } finally {
            callers.shutdownNow();
        }

        assertThat(toLose.get()).as("three acknowledgements were lost").isNegative();
        assertThat(answers).hasSize(40).allSatisfy((marker, results) -> assertThat(results).hasSize(1));
        Map<String, Long> logged = ledger(stream);
        assertThat(logged).hasSize(43).allSatisfy((marker, count) -> assertThat(count).as(marker).isEqualTo(1));
        List<ProduceResult> results = answers.values().stream().map(each -> each.get(0)).toList();
        assertThat(results).filteredOn(ProduceResult::duplicate).as("the messages of the batches whose answer was lost")
                .isNotEmpty().containsOnly(new ProduceResult(0, true));
        assertThat(results).filteredOn(result -> !result.duplicate()).extracting(ProduceResult::id)
                .doesNotHaveDuplicates().allMatch(id -> id > 0);
    }

    /**
     * {@code real}, except that while {@code toLose} is positive each execution of the produce statement commits
     * (auto-commit) and then fails as a dropped connection does; it counts down past zero once the last is lost.
     */
    private static DataSource losingAcknowledgements(DataSource real, AtomicInteger toLose) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    if (!(result instanceof Connection connection)) {
                        return result;
                    }
                    return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                            (inner, call, callArgs) -> {
                                Object made = invoke(connection, call, callArgs);
                                if (made instanceof PreparedStatement statement
                                        && ((String) callArgs[0]).contains("AS claimed_keys")) {
                                    return losingStatement(statement, toLose);
                                }
                                return made;
                            });
                });
    }

    private static PreparedStatement losingStatement(PreparedStatement real, AtomicInteger toLose) {
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    if (method.getName().equals("executeQuery") && toLose.getAndUpdate(n -> n > 0 ? n - 1 : -1) > 0) {
                        ((ResultSet) result).close();
                        throw new SQLException("the connection dropped before the commit was acknowledged (test)",
                                "08006");
                    }
                    return result;
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException failure) {
            throw failure.getCause();
        }
    }
}
