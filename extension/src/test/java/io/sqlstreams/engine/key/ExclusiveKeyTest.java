package io.sqlstreams.engine.key;

import static io.sqlstreams.engine.key.OrderedKeyKit.keyed;
import static io.sqlstreams.engine.key.OrderedKeyKit.retries;
import static io.sqlstreams.engine.key.OrderedKeyKit.session;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.engine.key.OrderedKeyKit.Keyed;
import io.sqlstreams.testing.PostgresTest;

/**
 * The exclusive policy: one run of a key at a time, in any order. A failed message may be overtaken by a later
 * one of its key; a hot key stays serial across sessions however much concurrency they have; a key lease left by
 * a crashed holder holds the key's messages back until it expires, then is taken over.
 */
@PostgresTest
class ExclusiveKeyTest extends OrderedKeyKit.RigTest {
    private static final String GROUP = "exclusive";

    /**
     * The reference's apply-balance example: the balance is 300; 101 subtracts 500 and fails while the funds are
     * short; 102 adds 200. Exclusive lets 102 run before 101's retry, which then succeeds (balance 0). Ordered,
     * for contrast, keeps 102 behind 101, which can never succeed and goes dead; 102 then runs (balance 500).
     */
    @ParameterizedTest
    @EnumSource(value = Concurrency.class, names = {"EXCLUSIVE", "ORDERED"})
    void exclusiveMayReorderAKeyWhereOrderedWaits(Concurrency policy) throws Exception {
        AtomicLong balance = new AtomicLong(300);
        List<Long> ids = rig.produceInOrder(List.of(
                ProduceItem.of(new Keyed("account-7", 101), keyed("account-7", null)),
                ProduceItem.of(new Keyed("account-7", 102), keyed("account-7", null))));
        rig.start(GROUP, retries(2).concurrencyOverride(policy).exceptionInitialBackoff(Duration.ofMillis(200)).build(),
                ledger.handler((payload, run) -> {
                    if (payload.n() == 101) {
                        if (balance.get() < 500) {
                            throw new IllegalStateException("insufficient funds: " + balance.get());
                        }
                        balance.addAndGet(-500);
                    } else {
                        balance.addAndGet(200);
                    }
                }), session().batchLimit(10).messageConcurrency(1).build());

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(ledger.succeeded(GROUP)).contains(ids.get(1));
            assertThat(rig.committed(GROUP)).isEqualTo(ids.get(1));
        });
        assertThat(ledger.overlaps(GROUP, "account-7")).isEmpty();
        if (policy == Concurrency.EXCLUSIVE) {
            assertThat(ledger.numbers(GROUP)).as("102 overtakes the retry of 101").containsExactly(101L, 102L, 101L);
            assertThat(balance).hasValue(0);
            assertThat(rig.exceptions(GROUP)).isEmpty();
        } else {
            assertThat(ledger.numbers(GROUP)).as("102 waits until 101 is dead").containsExactly(101L, 101L, 101L, 102L);
            assertThat(balance).hasValue(500);
            assertThat(rig.exceptions(GROUP)).containsOnlyKeys(ids.get(0));
            assertThat(rig.exceptions(GROUP).get(ids.get(0))).startsWith("dead/");
        }
    }

    @Test
    void aHotKeyNeverRunsTwiceAtOnceAcrossFourSessionsWithConcurrencyEight() throws Exception {
        int messages = 160;
        Random random = new Random(7);
        List<ProduceItem<Keyed>> items = new ArrayList<>();
        for (long n = 1; n <= messages; n++) {
            String key = random.nextInt(3) == 0 ? "cold-" + random.nextInt(4) : "hot";
            items.add(ProduceItem.of(new Keyed(key, n), keyed(key, Concurrency.EXCLUSIVE)));
        }
        Set<Long> failedOnce = ConcurrentHashMap.newKeySet();
        List<ConsumerSession> sessions = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sessions.add(rig.start(GROUP, retries(5).build(), ledger.handler((payload, run) -> {
                Thread.sleep(1 + payload.n() % 3);
                if (payload.n() % 10 == 0 && failedOnce.add(payload.n())) {
                    throw new IllegalStateException("first attempt of " + payload.n() + " fails");
                }
            }), session().batchLimit(8).messageConcurrency(8).build()));
        }
        List<Long> ids = new ArrayList<>();
        for (int from = 0; from < messages; from += 40) {
            ids.addAll(rig.produceBatch(items.subList(from, from + 40)));
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(ledger.succeeded(GROUP)).containsExactlyInAnyOrderElementsOf(ids));
        assertThat(ledger.runsOfKey(GROUP, "hot")).hasSizeGreaterThan(100);
        for (String key : List.of("hot", "cold-0", "cold-1", "cold-2", "cold-3")) {
            assertThat(ledger.overlaps(GROUP, key)).as("overlapping runs of %s", key).isEmpty();
        }
        assertThat(ledger.runsAfterSuccess(GROUP)).isEmpty();
        assertThat(ledger.runs(GROUP)).hasSize(messages + failedOnce.size());
        assertThat(sessions.stream().filter(session -> session.counters().claimed() > 0).count())
                .as("several sessions held ranges with the hot key, so its lease was contended").isGreaterThan(1);
    }

    /**
     * A crashed holder's lease row, written behind the library's back, keeps the key busy: the fresh message waits
     * in its session without running (and without a deferral) while the row is live, and runs once it expired.
     */
    @Test
    void aKeyLeaseLeftByACrashedRunHoldsTheMessageBackUntilItExpires() throws Exception {
        rig.stream.consumer(GROUP).register(retries(3).concurrencyOverride(Concurrency.EXCLUSIVE).build());
        String table = "{s}.message_key_lease_" + rig.streamId();
        UUID crashed = UUID.randomUUID();
        writeCrashedLease(table, crashed, "user:1", Duration.ofSeconds(2));
        long id = rig.produce("user:1", 1, keyed("user:1", null));
        List<Boolean> holderLiveAtStart = new CopyOnWriteArrayList<>();
        rig.start(GROUP, retries(3).concurrencyOverride(Concurrency.EXCLUSIVE).build(), ledger.handler((payload, run) ->
                holderLiveAtStart.add(holderLive(table, crashed))), session().build());

        await().atMost(WAIT).untilAsserted(() -> assertThat(ledger.succeeded(GROUP)).containsExactly(id));
        assertThat(holderLiveAtStart).as("the crashed holder's lease was live when the handler started")
                .containsExactly(false);
        assertThat(rig.log(GROUP, id)).as("it waited in process: no deferral, no failure").isEmpty();
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(rig.exceptions(GROUP)).isEmpty();
            assertThat(rig.sql.count("SELECT count(*) FROM " + table)).as("the taken-over lease was released")
                    .isZero();
        });
    }

    /**
     * A crashed holder's lease that outlives what the range's lease leaves to wait: the message is deferred to the
     * exception path with its attempt given back, never runs while the row is live, and runs once it expired.
     */
    @Test
    void aKeyLeaseOutlivingTheRangesLeaseDefersTheMessageUntilItExpires() throws Exception {
        rig.stream.consumer(GROUP).register(retries(3).concurrencyOverride(Concurrency.EXCLUSIVE).build());
        String table = "{s}.message_key_lease_" + rig.streamId();
        UUID crashed = UUID.randomUUID();
        Timestamp expiresAt = writeCrashedLease(table, crashed, "user:1", Duration.ofSeconds(8));
        long id = rig.produce("user:1", 1, keyed("user:1", null));
        List<Boolean> holderLiveAtStart = new CopyOnWriteArrayList<>();
        rig.start(GROUP, retries(3).concurrencyOverride(Concurrency.EXCLUSIVE).build(), ledger.handler((payload, run) ->
                holderLiveAtStart.add(holderLive(table, crashed))),
                session().queueMargin(Duration.ofSeconds(1)).build());

        await().atMost(WAIT).untilAsserted(() -> assertThat(rig.exceptions(GROUP).get(id))
                .as("deferred before its first run").isEqualTo("deferred/-1/0"));
        assertThat(rig.sql.bool("SELECT now() < ?", expiresAt)).as("seen deferred before the crashed lease expired")
                .isTrue();
        await().atMost(WAIT).untilAsserted(() -> assertThat(ledger.succeeded(GROUP)).containsExactly(id));
        assertThat(holderLiveAtStart).as("the crashed holder's lease was live when the handler started")
                .containsExactly(false);
        assertThat(rig.log(GROUP, id)).contains("deferred").doesNotContain("failure");
        assertThat(rig.sql.strings("SELECT DISTINCT error FROM {s}.delivery_log_" + rig.streamId()
                + " WHERE message_id = ? AND status = 'deferred'", id))
                .contains("its key stayed busy until too little of the range's lease was left to run it");
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(rig.exceptions(GROUP)).isEmpty();
            assertThat(rig.sql.count("SELECT count(*) FROM " + table)).as("the taken-over lease was released")
                    .isZero();
        });
    }

    private Timestamp writeCrashedLease(String table, UUID token, String key, Duration left) throws SQLException {
        return (Timestamp) rig.sql.value("INSERT INTO " + table + " (consumer_group_id, message_key, token, expires_at)"
                + " VALUES (?, ?, ?, now() + ? * interval '1 millisecond') RETURNING expires_at",
                rig.groupId(GROUP), key, token, left.toMillis());
    }

    private boolean holderLive(String table, UUID token) throws SQLException {
        return rig.sql.bool("SELECT EXISTS (SELECT 1 FROM " + table
                + " WHERE token = ? AND expires_at > clock_timestamp())", token);
    }

    /**
     * A run whose key lease was taken over while it ran (the row now carries another claimant's token) finds
     * nothing to release: the session warns that the run may have overlapped, and leaves the other lease alone.
     */
    @Test
    void aRunWhoseKeyLeaseWasTakenOverWarnsWhenItReleases() throws Exception {
        CountDownLatch takenOver = new CountDownLatch(1);
        rig.start(GROUP, retries(3).concurrencyOverride(Concurrency.EXCLUSIVE).build(), ledger.handler((payload, run) ->
                assertThat(takenOver.await(10, TimeUnit.SECONDS)).isTrue()), session().build());
        long id = rig.produce("user:2", 1, keyed("user:2", null));
        await().atMost(WAIT).until(() -> !ledger.runs(GROUP).isEmpty());

        UUID other = UUID.randomUUID();
        String table = "{s}.message_key_lease_" + rig.streamId();
        assertThat(rig.sql.update("UPDATE " + table + " SET token = ?, expires_at = now() + interval '1 minute'"
                + " WHERE consumer_group_id = ? AND message_key = 'user:2'", other, rig.groupId(GROUP)))
                .as("the run holds the key lease").isEqualTo(1);
        takenOver.countDown();

        await().atMost(WAIT).untilAsserted(() -> assertThat(rig.sessionWarnings("expired mid-run and were taken over"))
                .hasSize(1).allMatch(line -> line.startsWith("SQL0127 1 key lease(s) of range ")));
        assertThat(ledger.succeeded(GROUP)).containsExactly(id);
        assertThat(rig.sql.count("SELECT count(*) FROM " + table + " WHERE token = ?", other))
                .as("the other claimant's lease is left alone").isEqualTo(1);
    }
}
