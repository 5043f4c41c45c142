package io.sqlstreams.engine.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.sqlstreams.CompactionOptions;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.engine.key.OrderedKeyKit.Keyed;
import io.sqlstreams.engine.key.OrderedKeyKit.KeyedV2;
import io.sqlstreams.engine.key.OrderedKeyKit.Ledger;
import io.sqlstreams.testing.PostgresTest;

/**
 * Compaction on delivery: a group is handed only the heads current when it claims; older versions are passed over
 * without a trace and the cursor moves past them; the head is chosen by payload version before rank, so a group of
 * the older payload version gets nothing for a key whose head is newer.
 */
@PostgresTest
class CompactionDeliveryTest extends OrderedKeyKit.RigTest {
    private static final String GROUP = "compacted";

    private static ProduceOptions version(String key) {
        return ProduceOptions.builder().messageKey(key).compaction(CompactionOptions.enabled()).build();
    }

    private static ProduceOptions version(String key, long rank) {
        return ProduceOptions.builder().messageKey(key).compaction(CompactionOptions.withRank(rank)).build();
    }

    /** PARALLEL stands for a group without a policy; EXCLUSIVE adds the head-gated key lease. */
    @ParameterizedTest
    @EnumSource(value = Concurrency.class, names = {"PARALLEL", "EXCLUSIVE"})
    void aGroupStartedAfterFiveVersionsIsHandedOnlyTheCurrentHead(Concurrency policy) throws Exception {
        List<ProduceItem<Keyed>> items = new ArrayList<>();
        for (int v = 1; v <= 5; v++) {
            items.add(ProduceItem.of(new Keyed("k", v), version("k")));
            if (v <= 2) {
                items.add(ProduceItem.of(new Keyed("j", 10 + v), version("j")));
            }
        }
        items.add(ProduceItem.of(new Keyed("plain", 20), ProduceOptions.builder().messageKey("plain").build()));
        items.add(ProduceItem.of(new Keyed(null, 30), ProduceOptions.none()));
        rig.produceInOrder(items);

        ConsumerSession session = rig.start(GROUP, OrderedKeyKit.retries(3)
                        .concurrencyOverride(policy == Concurrency.PARALLEL ? null : policy).build(),
                ledger.succeeding(), OrderedKeyKit.session().batchLimit(4).messageConcurrency(2).build());

        await().atMost(WAIT).untilAsserted(() -> assertThat(rig.committed(GROUP)).isEqualTo(rig.head()));
        assertThat(ledger.numbers(GROUP)).as("only the heads and the uncompacted messages")
                .containsExactlyInAnyOrder(5L, 12L, 20L, 30L);
        assertThat(rig.exceptions(GROUP)).isEmpty();
        assertThat(rig.sql.count("SELECT count(*) FROM {s}.delivery_log_" + rig.streamId()))
                .as("older versions are passed over, not superseded").isZero();
        assertThat(session.counters().claimed()).isEqualTo(4);
        assertThat(session.counters().superseded()).isZero();
    }

    /**
     * Without a policy there is no key lease and no head re-check: a version queued as the head is delivered even
     * after a newer version arrived, and the newer one is delivered too.
     */
    @Test
    void parallelCompactedMessagesAreDeliveredAsTheHeadsTheyWereAtClaimTime() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        rig.start(GROUP, OrderedKeyKit.retries(3).build(), ledger.handler((payload, run) -> {
            if (payload.n() == 1) {
                assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
            }
        }), OrderedKeyKit.session().batchLimit(1).messageConcurrency(1).build());

        rig.produce("k", 1, version("k"));
        await().atMost(WAIT).until(() -> ledger.numbers(GROUP).contains(1L));
        long second = rig.produce("k", 2, version("k"));
        await().atMost(WAIT).until(() -> rig.claimed(GROUP) >= second);
        long third = rig.produce("k", 3, version("k"));
        assertThat(rig.stream.key("k").compactionHead().id()).as("the queued version is no longer the head")
                .isEqualTo(third);
        release.countDown();

        await().atMost(WAIT).untilAsserted(() -> assertThat(rig.committed(GROUP)).isEqualTo(third));
        assertThat(ledger.numbers(GROUP)).containsExactly(1L, 2L, 3L);
        assertThat(rig.exceptions(GROUP)).isEmpty();
    }

    @Test
    void successiveParallelHeadsOfOneKeyMayOverlap() throws Exception {
        CountDownLatch secondStarted = new CountDownLatch(1);
        rig.start(GROUP, OrderedKeyKit.retries(3).build(), ledger.handler((payload, run) -> {
            if (payload.n() == 1) {
                assertThat(secondStarted.await(10, TimeUnit.SECONDS)).as("version 2 runs alongside").isTrue();
            } else {
                secondStarted.countDown();
            }
        }), OrderedKeyKit.session().batchLimit(1).messageConcurrency(2).build());

        rig.produce("k", 1, version("k"));
        await().atMost(WAIT).until(() -> ledger.numbers(GROUP).contains(1L));
        long second = rig.produce("k", 2, version("k"));

        await().atMost(WAIT).untilAsserted(() -> assertThat(rig.committed(GROUP)).isEqualTo(second));
        assertThat(ledger.overlaps(GROUP, "k")).hasSize(1);
        assertThat(ledger.runsOfKey(GROUP, "k")).allMatch(run -> run.result == Ledger.Result.SUCCESS);
    }

    /**
     * A version-2 payload becomes the head over a version-1 one of a higher rank. The version-1 group is then
     * handed nothing for the key (its own version is no longer the head), the version-2 group the v2 head.
     */
    @Test
    void aNewerPayloadVersionsHeadWinsOverAHigherRankedOlderOne() throws Exception {
        long plain = rig.produce("plain", 2, ProduceOptions.builder().messageKey("plain").build());
        rig.produce("k", 1, version("k", 100));
        long v2Head;
        try (Producer<KeyedV2> v2 = client.stream(rig.stream.name(), KeyedV2.class).producer().register()) {
            v2Head = v2.produce(new KeyedV2("k", 3, "v2"), version("k", 1)).id();
        }
        assertThat(client.stream(rig.stream.name(), KeyedV2.class).key("k").compactionHead().id()).isEqualTo(v2Head);

        ConsumerConfig config = OrderedKeyKit.retries(3).build();
        rig.start(Keyed.class, "v1", config, ledger.<Keyed>succeeding(), OrderedKeyKit.session().build());
        rig.start(KeyedV2.class, "v2", config, ledger.<KeyedV2>succeeding(), OrderedKeyKit.session().build());

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(rig.committed("v1")).isEqualTo(rig.head());
            assertThat(rig.committed("v2")).isEqualTo(rig.head());
        });
        assertThat(ledger.runs("v1")).extracting(run -> run.id).as("the v1 group: only the uncompacted message")
                .containsExactly(plain);
        assertThat(ledger.runs("v2")).extracting(run -> run.id).as("the v2 group: the v2 head").containsExactly(v2Head);
        assertThat(rig.exceptions("v1")).isEmpty();
        assertThat(rig.exceptions("v2")).isEmpty();
    }
}
