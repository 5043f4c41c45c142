package io.sqlstreams.engine.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.CompactionOptions;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.testing.PostgresTest;

/** Exclusive and ordered keys across several sessions, failures and retries; compaction supersedes. */
@PostgresTest
class KeyPolicyTest extends EngineTestBase {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @SchemaVersion(1)
    public record Keyed(String key, int n) {
    }

    private final List<ConsumerSession> sessions = new ArrayList<>();

    @AfterEach
    void stopSessions() {
        sessions.forEach(ConsumerSession::close);
    }

    @Test
    void anExclusiveKeyNeverRunsTwiceAtOnceAcrossSessionsAndRetries() {
        StreamHandle<Keyed> stream = registered("keys.exclusive");
        int keys = 8;
        int messages = 240;
        Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
        List<String> overlaps = new CopyOnWriteArrayList<>();
        Set<Integer> succeeded = ConcurrentHashMap.newKeySet();
        Set<Integer> failedOnce = ConcurrentHashMap.newKeySet();
        MessageHandler<Keyed> handler = message -> {
            if (running.computeIfAbsent(message.key(), k -> new AtomicInteger()).incrementAndGet() > 1) {
                overlaps.add(message.key() + "#" + message.n());
            }
            try {
                Thread.sleep(1 + message.n() % 4);
                if (message.n() % 7 == 0 && failedOnce.add(message.n())) {
                    throw new IllegalStateException("first attempt of " + message.n() + " fails");
                }
                succeeded.add(message.n());
            } finally {
                running.get(message.key()).decrementAndGet();
            }
        };
        startSessions(stream, "exclusive", config(Concurrency.EXCLUSIVE), handler, 4);
        produceKeyed(stream, keys, messages, null);

        await().atMost(WAIT).untilAsserted(() -> assertThat(succeeded).hasSize(messages));
        assertThat(overlaps).as("runs of one key overlapping").isEmpty();
    }

    @Test
    void anOrderedKeySucceedsInIdOrderAcrossSessionsFailuresAndDelays() {
        StreamHandle<Keyed> stream = registered("keys.ordered");
        int keys = 6;
        int messages = 180;
        Map<String, List<Long>> successes = new ConcurrentHashMap<>();
        Set<Integer> failedOnce = ConcurrentHashMap.newKeySet();
        MessageHandler<Keyed> handler = message -> {
            if (message.n() % 9 == 0 && failedOnce.add(message.n())) {
                throw new IllegalStateException("first attempt of " + message.n() + " fails");
            }
            successes.computeIfAbsent(message.key(), k -> Collections.synchronizedList(new ArrayList<>()))
                    .add(MessageMeta.current().messageId());
        };
        startSessions(stream, "ordered", config(Concurrency.ORDERED), handler, 3);
        produceKeyed(stream, keys, messages, null);

        await().atMost(WAIT).untilAsserted(() ->
                assertThat(successes.values().stream().mapToInt(List::size).sum()).isEqualTo(messages));
        successes.forEach((key, ids) -> assertThat(ids).as("successes of " + key).isSorted().doesNotHaveDuplicates());
    }

    @Test
    void theApplyBalanceExampleDefersFollowersUntilTheFailedMessageSucceeds() throws Exception {
        StreamHandle<Keyed> stream = registered("keys.balance");
        List<Integer> runs = new CopyOnWriteArrayList<>();
        AtomicInteger firstAttempts = new AtomicInteger();
        MessageHandler<Keyed> handler = message -> {
            runs.add(message.n());
            if (message.n() == 101 && firstAttempts.incrementAndGet() == 1) {
                throw new IllegalStateException("insufficient funds, for now");
            }
        };
        produceKeyed(stream, 1, 4, 101);
        startSessions(stream, "apply-balance", config(Concurrency.ORDERED), handler, 1);

        await().atMost(WAIT).untilAsserted(() -> assertThat(runs).containsExactly(101, 101, 102, 103, 104));
        assertThat(sql().count("SELECT count(*) FROM {s}.delivery_log_" + streamId(stream)
                + " WHERE status = 'deferred' AND error LIKE 'an earlier message of the key in the same range%'"))
                .as("102, 103 and 104 deferred without running when 101 failed").isEqualTo(3);
        assertThat(sql().count("SELECT count(*) FROM {s}.delivery_log_" + streamId(stream)
                + " WHERE status = 'deferred'")).as("deferred rows are not re-claimed in a tight loop").isLessThan(20);
    }

    @Test
    void exclusiveCompactionSupersedesIntermediateVersions() throws Exception {
        StreamHandle<Keyed> stream = registered("keys.compacted");
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> ran = new CopyOnWriteArrayList<>();
        MessageHandler<Keyed> handler = message -> {
            ran.add(message.n());
            if (message.n() == 1) {
                firstRunning.countDown();
                release.await();
            }
        };
        try (Producer<Keyed> producer = stream.producer().register()) {
            ProduceOptions version = ProduceOptions.builder().messageKey("user:123")
                    .compaction(CompactionOptions.enabled()).build();
            producer.produce(new Keyed("user:123", 1), version);
            startSessions(stream, "profiles", config(Concurrency.EXCLUSIVE), handler, 2);
            assertThat(firstRunning.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            producer.produce(new Keyed("user:123", 2), version);
            producer.produce(new Keyed("user:123", 3), version);
            await().atMost(WAIT).until(() -> sessions.stream().mapToLong(s -> s.counters().deferred()
                    + s.counters().superseded()).sum() > 0 || ran.contains(3));
            release.countDown();
        }
        await().atMost(WAIT).untilAsserted(() -> assertThat(ran).containsExactly(1, 3));
    }

    private ConsumerConfig config(Concurrency policy) {
        return ConsumerConfig.builder()
                .concurrencyOverride(policy)
                .exceptionInitialBackoff(Duration.ofMillis(20))
                .message(MessageOptions.builder().timeout(Duration.ofSeconds(10)).retry(RetryPolicy.builder()
                        .maxRetries(5).baseDelay(Duration.ofMillis(20)).maxDelay(Duration.ofMillis(100)).build()).build())
                .build();
    }

    private void startSessions(StreamHandle<Keyed> stream, String group, ConsumerConfig config,
                               MessageHandler<Keyed> handler, int count) {
        for (int i = 0; i < count; i++) {
            EngineClient own = EngineFixtures.client(database, logger);
            sessions.add(own.stream(stream.name(), Keyed.class).consumer(group).register(config).start(handler,
                    ConsumeOptions.builder().batchLimit(8).messageConcurrency(4)
                            .claimPollRate(Duration.ofMillis(20)).build()));
        }
    }

    private StreamHandle<Keyed> registered(String name) {
        StreamHandle<Keyed> stream = client.stream(name, Keyed.class);
        stream.register();
        return stream;
    }

    /** {@code messages} messages over {@code keys} keys in a random key order; numbered from {@code first}. */
    private void produceKeyed(StreamHandle<Keyed> stream, int keys, int messages, Integer first) {
        Random random = new Random(42);
        int start = first == null ? 1 : first;
        try (Producer<Keyed> producer = stream.producer().register()) {
            List<ProduceItem<Keyed>> items = new ArrayList<>();
            for (int n = start; n < start + messages; n++) {
                String key = "k" + random.nextInt(keys);
                items.add(ProduceItem.of(new Keyed(key, n), ProduceOptions.builder().messageKey(key).build()));
            }
            for (ProduceItem<Keyed> item : items) {
                producer.produce(item.message(), item.options());
            }
        }
    }

    private io.sqlstreams.testing.Sql sql() {
        return new io.sqlstreams.testing.Sql(database);
    }

    private static long streamId(StreamHandle<?> stream) {
        return stream.get().orElseThrow().id();
    }
}
