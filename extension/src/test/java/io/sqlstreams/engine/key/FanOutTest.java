package io.sqlstreams.engine.key;

import static io.sqlstreams.engine.key.OrderedKeyKit.retries;
import static io.sqlstreams.engine.key.OrderedKeyKit.session;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import io.sqlstreams.MessageHandler;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Start;
import io.sqlstreams.engine.key.OrderedKeyKit.Keyed;
import io.sqlstreams.engine.key.OrderedKeyKit.Ledger;
import io.sqlstreams.testing.PostgresTest;

/**
 * Fan-out: every group on a stream has its own cursor, exception rows and retry policy. One message can be dead
 * for one group and done for another; a group starting at the head sees only later messages; a slow group does
 * not hold another's committed cursor.
 */
@PostgresTest
class FanOutTest extends OrderedKeyKit.RigTest {
    private List<Long> produceKeyless(long from, long to) {
        return rig.produceInOrder(LongStream.rangeClosed(from, to)
                .mapToObj(n -> ProduceItem.of(new Keyed(null, n), ProduceOptions.none())).toList());
    }

    /**
     * Message 3 fails its first two runs in every group. "once" (MaxRetries 1) dead-letters it after two runs;
     * "thrice" (MaxRetries 3) succeeds on the third; "poison" calls it terminal on its first run.
     */
    @Test
    void oneMessageIsDeadForOneGroupAndDoneForAnother() throws Exception {
        List<Long> ids = produceKeyless(1, 5);
        long flaky = ids.get(2);
        MessageHandler<Keyed> failTwice = ledger.handler((payload, run) -> {
            if (payload.n() == 3 && ledger.runsOf(run.group, run.id).size() <= 2) {
                throw new IllegalStateException("run " + ledger.runsOf(run.group, run.id).size() + " fails");
            }
        });
        rig.start("once", retries(1).build(), failTwice, session().build());
        rig.start("thrice", retries(3).build(), failTwice, session().build());
        rig.start("poison", retries(3).build(), ledger.handler((payload, run) -> {
            if (payload.n() == 3) {
                throw Outcome.terminal("cannot be processed");
            }
        }), session().build());

        await().atMost(WAIT).untilAsserted(() -> {
            for (String group : List.of("once", "thrice", "poison")) {
                assertThat(rig.committed(group)).as("committed of %s", group).isEqualTo(ids.get(4));
            }
            assertThat(rig.exceptions("once")).isEqualTo(Map.of(flaky, "dead/1/0"));
            assertThat(rig.exceptions("thrice")).isEmpty();
            assertThat(rig.exceptions("poison")).isEqualTo(Map.of(flaky, "dead/0/0"));
        });
        assertThat(ledger.runsOf("once", flaky)).hasSize(2);
        assertThat(ledger.runsOf("thrice", flaky)).hasSize(3);
        assertThat(ledger.runsOf("poison", flaky)).hasSize(1);
        assertThat(rig.log("once", flaky)).containsExactly("failure", "failure");
        assertThat(rig.log("thrice", flaky)).containsExactly("failure", "failure");
        assertThat(rig.log("poison", flaky)).containsExactly("failure");
        for (String group : List.of("once", "thrice", "poison")) {
            assertThat(ledger.succeeded(group)).as("successes of %s", group).containsAll(List.of(ids.get(0),
                    ids.get(1), ids.get(3), ids.get(4)));
            assertThat(ledger.runsAfterSuccess(group)).isEmpty();
        }
        assertThat(ledger.succeeded("thrice")).contains(flaky);
        assertThat(ledger.succeeded("once")).doesNotContain(flaky);
    }

    @Test
    void aGroupStartingAtTheHeadSeesOnlyLaterMessagesWhileOneFromTheBeginningSeesAll() throws Exception {
        List<Long> history = produceKeyless(1, 50);
        rig.stream.consumer("live").register(retries(3).start(Start.HEAD).build());
        rig.stream.consumer("replay").register(retries(3).start(Start.BEGINNING).build());
        assertThat(rig.committed("live")).isEqualTo(history.get(49));
        assertThat(rig.committed("replay")).isZero();
        List<Long> later = produceKeyless(51, 60);

        rig.start("live", retries(3).start(Start.HEAD).build(), ledger.succeeding(), session().batchLimit(16).build());
        rig.start("replay", retries(3).start(Start.BEGINNING).build(), ledger.succeeding(),
                session().batchLimit(16).build());

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(rig.committed("live")).isEqualTo(later.get(9));
            assertThat(rig.committed("replay")).isEqualTo(later.get(9));
        });
        assertThat(ledger.runs("live")).extracting(run -> run.id).containsExactlyInAnyOrderElementsOf(later);
        assertThat(ledger.runs("replay")).extracting(run -> run.id).hasSize(60)
                .containsAll(history).containsAll(later);
    }

    @Test
    void aSlowGroupDoesNotHoldAnotherGroupsCommittedCursor() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        rig.start("slow", retries(3).build(), ledger.handler((payload, run) ->
                assertThat(release.await(20, TimeUnit.SECONDS)).isTrue()), session().batchLimit(4).build());
        rig.start("fast", retries(3).build(), ledger.succeeding(), session().batchLimit(4).build());
        List<Long> ids = produceKeyless(1, 20);
        long last = ids.get(19);

        await().atMost(WAIT).untilAsserted(() -> assertThat(rig.committed("fast")).isEqualTo(last));
        assertThat(rig.committed("slow")).as("the slow group is still on its first message").isZero();
        assertThat(ledger.runs("slow")).hasSize(1).allMatch(run -> run.result == Ledger.Result.RUNNING);
        release.countDown();

        await().atMost(WAIT).untilAsserted(() -> assertThat(rig.committed("slow")).isEqualTo(last));
        assertThat(ledger.runs("fast")).extracting(run -> run.id).containsExactlyElementsOf(ids);
        assertThat(ledger.succeeded("slow")).containsExactlyElementsOf(ids);
        assertThat(ledger.runsAfterSuccess("slow")).isEmpty();
    }
}
