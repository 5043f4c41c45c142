package io.sqlstreams.engine.key;

import static io.sqlstreams.engine.key.OrderedKeyKit.keyed;
import static io.sqlstreams.engine.key.OrderedKeyKit.retries;
import static io.sqlstreams.engine.key.OrderedKeyKit.session;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.engine.consume.ConsumeFixtures;
import io.sqlstreams.engine.key.OrderedKeyKit.Keyed;
import io.sqlstreams.engine.key.OrderedKeyKit.Ledger;
import io.sqlstreams.testing.PostgresTest;

/**
 * The ordered policy: a dead predecessor releases its followers, a delayed one keeps them waiting, a per-message
 * request covers only the messages that ask, a chain inside one range runs under one permit, and a randomised
 * run over several sessions keeps every key in id order.
 */
@PostgresTest
class OrderedKeyTest extends OrderedKeyKit.RigTest {
    private static final String GROUP = "ordered";

    /** How the first message of the key ends up dead. */
    enum Death {
        /** {@code Outcome.terminal}: dead on its first run. */
        TERMINAL(1),
        /** Fails every run: dead once MaxRetries (2) is spent, after the first run and two retries. */
        RETRIES_EXHAUSTED(3),
        /** Asks for a delay every run: dead once MaxDelays (2) is spent. */
        DELAYS_EXHAUSTED(3);

        final int runs;

        Death(int runs) {
            this.runs = runs;
        }

        void die() {
            switch (this) {
                case TERMINAL -> throw Outcome.terminal("poison");
                case RETRIES_EXHAUSTED -> throw new IllegalStateException("always fails");
                default -> throw Outcome.delay(Duration.ofMillis(20));
            }
        }
    }

    /**
     * Batch limit 1 puts every message in a range of its own (followers wait through the key lease's predecessor
     * check and the exception path); 10 puts the key in one chain.
     */
    @ParameterizedTest(name = "{0}, batchLimit {1}")
    @CsvSource({"TERMINAL, 1", "TERMINAL, 10", "RETRIES_EXHAUSTED, 1", "RETRIES_EXHAUSTED, 10",
            "DELAYS_EXHAUSTED, 1", "DELAYS_EXHAUSTED, 10"})
    void aDeadPredecessorReleasesItsFollowersWhichThenSucceedInOrder(Death death, int batchLimit) throws Exception {
        List<Long> ids = rig.produceInOrder(List.of(item("k", 1), item("k", 2), item("other", 3), item("k", 4),
                item("k", 5)));
        ConsumerConfig config = ConsumerConfig.builder().concurrencyOverride(Concurrency.ORDERED)
                .exceptionInitialBackoff(Duration.ofMillis(10))
                .message(MessageOptions.builder().timeout(Duration.ofSeconds(5)).retry(RetryPolicy.builder()
                        .maxRetries(2).maxDelays(2).baseDelay(Duration.ofMillis(10)).maxDelay(Duration.ofMillis(50))
                        .build()).build())
                .build();
        rig.start(GROUP, config, ledger.handler((payload, run) -> {
            if (payload.n() == 1) {
                death.die();
            }
        }), session().batchLimit(batchLimit).messageConcurrency(2).build());

        long predecessor = ids.get(0);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(ledger.succeeded(GROUP)).containsExactlyInAnyOrderElementsOf(ids.subList(1, 5));
            assertThat(rig.exceptions(GROUP)).containsOnlyKeys(predecessor);
            assertThat(rig.exceptions(GROUP).get(predecessor)).startsWith("dead/");
            assertThat(rig.committed(GROUP)).as("dead rows do not hold the cursor").isEqualTo(ids.get(4));
        });
        assertThat(ledger.runsOf(GROUP, predecessor)).as("runs of the predecessor").hasSize(death.runs);
        assertThat(ledger.successOrder(GROUP, "k")).containsExactly(ids.get(1), ids.get(3), ids.get(4));
        ledger.assertOrdered(GROUP, Set.copyOf(ids.subList(1, 5)), Set.of(predecessor));
    }

    /**
     * A follower deferred because its predecessor failed has not run: its deferral costs nothing, so with
     * MaxRetries 3 it gets the same four runs as any other message, numbered from 1, before it could be dead. Here
     * both failing messages succeed on their fourth run.
     */
    @Test
    void aDeferredFollowerGetsItsWholeRetryBudgetAndCountsItsRunsFromOne() throws Exception {
        List<Long> ids = rig.produceInOrder(List.of(item("k", 1), item("k", 2), item("k", 3)));
        Map<Long, Integer> runs = new ConcurrentHashMap<>();
        rig.start(GROUP, retries(3).concurrencyOverride(Concurrency.ORDERED).build(), ledger.handler((payload, run) -> {
            if (payload.n() <= 2 && runs.merge(run.id, 1, Integer::sum) <= 3) {
                throw new IllegalStateException("run " + runs.get(run.id) + " of " + payload.n() + " fails");
            }
        }), session().batchLimit(10).build());

        long follower = ids.get(1);
        await().atMost(WAIT).failFast("the follower is dead",
                        () -> rig.exceptions(GROUP).getOrDefault(follower, "").startsWith("dead/"))
                .untilAsserted(() -> assertThat(ledger.succeeded(GROUP)).containsExactlyElementsOf(ids));
        assertThat(ledger.runsOf(GROUP, follower)).extracting(run -> run.attempt, run -> run.result)
                .as("the follower's runs").containsExactly(
                        tuple(1, Ledger.Result.FAILURE), tuple(2, Ledger.Result.FAILURE),
                        tuple(3, Ledger.Result.FAILURE), tuple(4, Ledger.Result.SUCCESS));
        assertThat(ledger.runsOf(GROUP, ids.get(0))).extracting(run -> run.attempt).containsExactly(1, 2, 3, 4);
        assertThat(ledger.runsOf(GROUP, ids.get(2))).extracting(run -> run.attempt).containsExactly(1);
        assertThat(rig.sql.strings("SELECT status || '@' || attempt FROM {s}.delivery_log_" + rig.streamId()
                + " WHERE message_id = ? ORDER BY id", follower))
                .as("deferred before its first run, then the failures of runs 0, 1 and 2")
                .containsExactly("deferred@0", "failure@0", "failure@1", "failure@2");
        ledger.assertOrdered(GROUP, Set.copyOf(ids), Set.of());
        await().atMost(WAIT).untilAsserted(() -> assertThat(rig.exceptions(GROUP)).isEmpty());
    }

    @ParameterizedTest(name = "batchLimit {0}")
    @ValueSource(ints = {1, 10})
    void aDelayKeepsTheFollowersWaitingUntilTheDelayedMessageIsResolved(int batchLimit) throws Exception {
        List<Long> ids = rig.produceInOrder(List.of(item("k", 1), item("k", 2), item("k", 3)));
        Set<Long> delayedOnce = ConcurrentHashMap.newKeySet();
        rig.start(GROUP, retries(3).concurrencyOverride(Concurrency.ORDERED).build(), ledger.handler((payload, run) -> {
            if (payload.n() == 1 && delayedOnce.add(run.id)) {
                throw Outcome.delay(Duration.ofMillis(400));
            }
        }), session().batchLimit(batchLimit).messageConcurrency(3).build());

        await().atMost(WAIT).untilAsserted(() -> assertThat(ledger.succeeded(GROUP)).containsExactlyElementsOf(ids));
        assertThat(ledger.numbers(GROUP)).as("payloads in run order: the delayed one twice, then its followers")
                .containsExactly(1L, 1L, 2L, 3L);
        assertThat(ledger.runsOf(GROUP, ids.get(0)).get(0).result).isEqualTo(Ledger.Result.DELAY);
        assertThat(rig.log(GROUP, ids.get(0))).startsWith("delayed");
        assertThat(rig.log(GROUP, ids.get(1))).as("the first follower waited as deferred").contains("deferred")
                .doesNotContain("failure");
        ledger.assertOrdered(GROUP, Set.copyOf(ids), Set.of());
        await().atMost(WAIT).untilAsserted(() -> assertThat(rig.exceptions(GROUP)).isEmpty());
    }

    @Test
    void aPerMessagePolicyCoversOnlyTheMessagesThatAskForIt() throws Exception {
        CountDownLatch bothParallelRunning = new CountDownLatch(2);
        Set<Long> failedOnce = ConcurrentHashMap.newKeySet();
        List<Long> ids = rig.produceInOrder(List.of(
                ProduceItem.of(new Keyed("ord", 1), keyed("ord", Concurrency.ORDERED)),
                ProduceItem.of(new Keyed("par", 2), keyed("par", null)),
                ProduceItem.of(new Keyed("ord", 3), keyed("ord", Concurrency.ORDERED)),
                ProduceItem.of(new Keyed("par", 4), keyed("par", null)),
                ProduceItem.of(new Keyed("ord", 5), keyed("ord", Concurrency.ORDERED))));
        rig.start(GROUP, retries(3).build(), ledger.handler((payload, run) -> {
            if (payload.key().equals("par")) {
                bothParallelRunning.countDown();
                assertThat(bothParallelRunning.await(10, TimeUnit.SECONDS)).as("the other parallel message runs too")
                        .isTrue();
            } else if (payload.n() == 1 && failedOnce.add(run.id)) {
                throw new IllegalStateException("first attempt fails");
            }
        }), session().batchLimit(10).messageConcurrency(4).build());

        await().atMost(WAIT).untilAsserted(() -> assertThat(ledger.succeeded(GROUP)).containsExactlyElementsOf(ids));
        assertThat(ledger.runsOfKey(GROUP, "par")).extracting(run -> run.policy).containsOnly(Concurrency.PARALLEL);
        assertThat(ledger.overlaps(GROUP, "par")).as("a keyed message without a policy may overlap").hasSize(1);
        assertThat(ledger.runsOfKey(GROUP, "ord")).extracting(run -> run.policy).containsOnly(Concurrency.ORDERED);
        assertThat(ledger.successOrder(GROUP, "ord")).containsExactly(ids.get(0), ids.get(2), ids.get(4));
        assertThat(ledger.overlaps(GROUP, "ord")).isEmpty();
        assertThat(ledger.runsAheadOfPredecessors(GROUP, "ord", Set.of())).isEmpty();
        assertThat(rig.log(GROUP, ids.get(2))).as("the ordered follower waited").contains("deferred");
        assertThat(rig.log(GROUP, ids.get(1))).as("the parallel messages never waited").isEmpty();
        assertThat(rig.log(GROUP, ids.get(3))).isEmpty();
    }

    @Test
    void aChainInsideOneRangeRunsInOrderUnderOnePermitWhileAnotherKeysChainRuns() throws Exception {
        CyclicBarrier firstOfEachKey = new CyclicBarrier(2);
        List<ProduceItem<Keyed>> items = new ArrayList<>();
        for (int n = 1; n <= 10; n++) {
            items.add(item(n % 2 == 1 ? "a" : "b", n));
        }
        items.add(ProduceItem.of(new Keyed(null, 11)));
        List<Long> ids = rig.produceInOrder(items);
        ConsumerSession session = rig.start(GROUP, retries(3).concurrencyOverride(Concurrency.ORDERED).build(),
                ledger.handler((payload, run) -> {
                    if (payload.n() <= 2) {
                        firstOfEachKey.await(10, TimeUnit.SECONDS);
                    }
                }), session().batchLimit(11).messageConcurrency(2).build());

        await().atMost(WAIT).untilAsserted(() -> assertThat(ledger.succeeded(GROUP)).containsExactlyElementsOf(ids));
        assertThat(session.counters().claimed()).as("each message claimed once").isEqualTo(11);
        assertThat(ledger.successOrder(GROUP, "a")).containsExactly(ids.get(0), ids.get(2), ids.get(4), ids.get(6),
                ids.get(8));
        assertThat(ledger.successOrder(GROUP, "b")).containsExactly(ids.get(1), ids.get(3), ids.get(5), ids.get(7),
                ids.get(9));
        assertThat(ledger.overlaps(GROUP, "a")).isEmpty();
        assertThat(ledger.overlaps(GROUP, "b")).isEmpty();
        Ledger.Run keyless = ledger.runsOf(GROUP, ids.get(10)).get(0);
        long firstChainDone = Math.min(ledger.runsOf(GROUP, ids.get(8)).get(0).ended,
                ledger.runsOf(GROUP, ids.get(9)).get(0).ended);
        assertThat(keyless.started).as("the keyless message waited for a whole chain to give its permit back")
                .isGreaterThan(firstChainDone);
        assertThat(ledger.runs(GROUP)).as("every run was a first attempt").allMatch(run -> run.attempt == 1);
        assertThat(rig.exceptions(GROUP)).as("an uninterrupted chain needs no exception path").isEmpty();
        assertThat(rig.logged(GROUP, "deferred")).isZero();
    }

    @Test
    void randomisedFailuresAndDelaysKeepEveryKeyInIdOrderAcrossSessions() throws Exception {
        int keys = 20;
        int messages = 600;
        Random random = new Random(20240611);
        Set<Long> failFirst = new TreeSet<>();
        Set<Long> delayOnce = new TreeSet<>();
        List<ProduceItem<Keyed>> items = new ArrayList<>();
        for (long n = 1; n <= messages; n++) {
            String key = "k" + random.nextInt(keys);
            items.add(ProduceItem.of(new Keyed(key, n), keyed(key, Concurrency.ORDERED)));
            double draw = random.nextDouble();
            if (draw < 0.10) {
                failFirst.add(n);
            } else if (draw < 0.15) {
                delayOnce.add(n);
            }
        }
        Set<Long> failed = ConcurrentHashMap.newKeySet();
        Set<Long> delayed = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 3; i++) {
            rig.start(GROUP, retries(5).build(), ledger.handler((payload, run) -> {
                if (failFirst.contains(payload.n()) && failed.add(payload.n())) {
                    throw new IllegalStateException("first attempt of " + payload.n() + " fails");
                }
                if (delayOnce.contains(payload.n()) && delayed.add(payload.n())) {
                    throw Outcome.delay(Duration.ofMillis(30));
                }
            }), session().batchLimit(8).messageConcurrency(4).build());
        }
        List<Long> ids = new ArrayList<>();
        for (int from = 0; from < messages; from += 50) {
            ids.addAll(rig.produceBatch(items.subList(from, from + 50)));
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(ledger.succeeded(GROUP)).hasSize(messages));
        ledger.assertOrdered(GROUP, Set.copyOf(ids), Set.of());
        Map<Long, Long> runsPerPayload = new java.util.TreeMap<>();
        ledger.runs(GROUP).forEach(run -> runsPerPayload.merge(run.n, 1L, Long::sum));
        runsPerPayload.forEach((n, count) -> assertThat(count).as("runs of payload %d", n)
                .isEqualTo(1L + (failFirst.contains(n) ? 1 : 0) + (delayOnce.contains(n) ? 1 : 0)));
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(rig.exceptions(GROUP)).isEmpty();
            assertThat(rig.committed(GROUP)).isEqualTo(rig.head());
        });
    }

    /**
     * Two sessions whose ranges share keys: a range's chain of a key that an earlier open range also holds waits
     * in its session for that range to commit, then runs. Nothing is deferred, nothing reaches the exception path,
     * and every key still succeeds in id order without overlap.
     */
    @Test
    void rangesSharingKeysAcrossSessionsWaitForEachOtherInsteadOfDeferring() throws Exception {
        int messages = 400;
        List<ProduceItem<Keyed>> items = new ArrayList<>();
        for (long n = 1; n <= messages; n++) {
            items.add(item("k" + n % 4, n));
        }
        List<ConsumerSession> sessions = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            sessions.add(rig.start(GROUP, retries(3).concurrencyOverride(Concurrency.ORDERED).build(),
                    ledger.handler((payload, run) -> { }), session().batchLimit(20).messageConcurrency(4).build()));
        }
        List<Long> ids = new ArrayList<>();
        for (int from = 0; from < messages; from += 100) {
            ids.addAll(rig.produceBatch(items.subList(from, from + 100)));
        }

        await().atMost(WAIT).untilAsserted(() -> assertThat(ledger.succeeded(GROUP)).hasSize(messages));
        ledger.assertOrdered(GROUP, Set.copyOf(ids), Set.of());
        assertThat(sessions).as("both sessions held ranges").allMatch(s -> s.counters().claimed() > 0);
        assertThat(ledger.runs(GROUP)).as("every message ran once").hasSize(messages);
        assertThat(rig.logged(GROUP, "deferred")).isZero();
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(rig.exceptions(GROUP)).isEmpty();
            assertThat(rig.sql.count("SELECT count(*) FROM {s}.message_key_lease_" + rig.streamId()))
                    .as("every range gave its key leases back").isZero();
        });
    }

    /**
     * A session stopping while its range's chain waits for an earlier range of another session (which polls too
     * rarely to claim the second batch itself): the chain is deferred unrun, so the range commits and leaves no
     * lease behind, and the messages are delivered in order (by a third session) once the earlier range is done.
     * The first session runs without wake-up on produce, which would have it claim the second batch at once.
     */
    @Test
    void aChainStillWaitingWhenItsSessionStopsIsDeferredSoItsRangeCommits() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        // message 1 blocks until released: its timeout outlasts the test's waits, so a loaded machine cannot time it
        // out onto the exception path, which would defer the later chain for that reason instead
        ConsumerConfig ordered = ConsumeFixtures.quickRetries(3, WAIT.multipliedBy(2)).toBuilder()
                .concurrencyOverride(Concurrency.ORDERED).build();
        List<ProduceItem<Keyed>> items = new ArrayList<>();
        for (long n = 1; n <= 10; n++) {
            items.add(item("k", n));
        }
        List<Long> ids = new ArrayList<>(rig.produceInOrder(items.subList(0, 5)));
        rig.startPollingOnly(GROUP, ordered, ledger.handler((payload, run) -> {
            if (payload.n() == 1) {
                assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            }
        }), session().batchLimit(5).claimPollRate(Duration.ofSeconds(30)).build());
        await().atMost(WAIT).until(() -> !ledger.runs(GROUP).isEmpty());
        ConsumerSession later = rig.start(GROUP, ordered, ledger.handler((payload, run) -> { }),
                session().batchLimit(5).build());
        ids.addAll(rig.produceInOrder(items.subList(5, 10)));
        await().atMost(WAIT).until(() -> later.counters().claimed() == 5);

        later.stop(Duration.ofSeconds(1));

        assertThat(rig.sql.count("SELECT count(*) FROM {s}.claim_lease_" + rig.streamId()))
                .as("only the first session's range is still leased").isEqualTo(1);
        assertThat(rig.exceptions(GROUP)).containsOnlyKeys(ids.subList(5, 10));
        assertThat(rig.exceptions(GROUP).values()).allMatch(row -> row.startsWith("deferred/"));
        assertThat(rig.sql.strings("SELECT DISTINCT error FROM {s}.delivery_log_" + rig.streamId()
                + " WHERE status = 'deferred'")).containsExactly("the session stopped while the chain waited for its key");
        release.countDown();
        rig.start(GROUP, ordered, ledger.handler((payload, run) -> { }), session().build());
        await().atMost(WAIT).untilAsserted(() -> assertThat(ledger.succeeded(GROUP)).hasSize(10));
        assertThat(ledger.successOrder(GROUP, "k")).containsExactlyElementsOf(ids);
    }

    /**
     * One ordered key's range of four messages whose handlers take 1 s each, at the default options but for a 2 s
     * queue margin (the default is 15 s): its fourth message would start about 3 s after the claim, when less of
     * the lease is left than a run needs (30 s timeout + grace + record margin). The range's lease is renewed by
     * its token, with the key's lease, so the chain runs on in order, each message once on the range path, instead
     * of waiting for the lease to run out (34.1 s here) and for a reclaim that would run its first messages again.
     */
    @Test
    void aKeyedRangeWhoseQueueOutlastsTheQueueMarginRenewsItsLeaseAndRunsOnWithoutWaitingForItsExpiry()
            throws Exception {
        List<Long> ids = rig.produceInOrder(List.of(item("k", 1), item("k", 2), item("k", 3), item("k", 4)));
        ConsumerSession session = rig.start(GROUP,
                ConsumerConfig.builder().concurrencyOverride(Concurrency.ORDERED).build(),
                ledger.handler((payload, run) -> Thread.sleep(1000)),
                ConsumeOptions.builder().queueMargin(Duration.ofSeconds(2)).build());

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(ledger.succeeded(GROUP)).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(rig.committed(GROUP)).isEqualTo(ids.get(3));
        });
        assertThat(ids).allSatisfy(id -> assertThat(ledger.runsOf(GROUP, id)).as("runs of %d", id).hasSize(1));
        assertThat(ledger.successOrder(GROUP, "k")).containsExactlyElementsOf(ids);
        assertThat(rig.sessionWarnings("SQL0105")).isEmpty();
        assertThat(session.counters().deferred()).as("none went to the exception path").isZero();
        assertThat(rig.exceptions(GROUP)).isEmpty();
    }

    private static ProduceItem<Keyed> item(String key, long n) {
        return ProduceItem.of(new Keyed(key, n), keyed(key, null));
    }
}
