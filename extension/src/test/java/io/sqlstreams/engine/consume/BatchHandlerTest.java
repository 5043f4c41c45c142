package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.sqlstreams.BatchHandler;
import io.sqlstreams.BatchItem;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import io.sqlstreams.Producer;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.DeliveryLedger.BatchCall;
import io.sqlstreams.engine.consume.DeliveryLedger.Result;
import io.sqlstreams.engine.consume.DeliveryLedger.Run;
import io.sqlstreams.engine.consume.DeliveryTables.ExceptionRow;
import io.sqlstreams.engine.consume.DeliveryTables.LogRow;
import io.sqlstreams.testing.PostgresTest;

/**
 * Sessions run with a {@link BatchHandler}: each call writes one row per item into an effects table of its own, as
 * one JDBC batch through the connection the library lends it, and the table's primary key rejects a second row for
 * the same message. So an effects table holding exactly the expected messages proves each effect committed exactly
 * once, although a batch that failed had written rows for all of its items before its items ran again one at a time.
 */
@PostgresTest
class BatchHandlerTest extends TransactionalTestBase {

    @Test
    void aRangeGoesToTheHandlerInOneCallAndCommitsWithIt() throws Exception {
        DeliveryScenario scenario = scenario("batchall", quickRetries(3, Duration.ofSeconds(5)), 100);
        Effects effects = effects("batchall");
        ConsumerSession session = start(scenario, ledger.batches((items, connection) ->
                writeAll(effects, items, connection)), relaxedSession().batchLimit(100).queueSize(100).build());

        await().atMost(PATIENCE).until(() -> scenario.tables().cursor().committed() >= scenario.last());
        session.close();

        List<BatchCall> calls = ledger.batchCalls();
        assertThat(calls).as("calls of the batch handler").hasSize(1);
        assertThat(calls.get(0).ids()).as("the range's items, in id order").containsExactlyElementsOf(scenario.ids());
        assertThat(calls.get(0).metas()).allSatisfy(meta -> {
            assertThat(meta.attempt()).as("attempt of %d", meta.messageId()).isEqualTo(1);
            assertThat(meta.group()).isEqualTo(scenario.group());
        });
        for (int i = 0; i < scenario.ids().size(); i++) {
            assertThat(ledger.runsOf(scenario.ids().get(i))).as("runs of the %dth message", i + 1)
                    .extracting(Run::payload).containsExactly(i + 1L);
        }
        ledger.assertEachSucceededOnce(scenario.ids());
        assertThat(effects.messageIds()).as("committed effects").containsExactlyElementsOf(scenario.ids());
        assertThat(scenario.tables().exceptions()).isEmpty();
        assertThat(scenario.tables().leases()).isEmpty();
        assertThat(scenario.tables().cursor().committed()).isEqualTo(scenario.last());
        assertThat(session.counters().success()).isEqualTo(100);
    }

    @Test
    void aFailedItemRollsTheBatchBackAndTheRangeRunsOneAtATime() throws Exception {
        DeliveryScenario scenario = scenario("batchitem", quickRetries(3, Duration.ofSeconds(5)), 100);
        Effects effects = effects("batchitem");
        long failing = scenario.ids().get(41);
        CountDownLatch retryMayWrite = new CountDownLatch(1);
        start(scenario, ledger.batches((items, connection) -> {
            if (contains(items, failing, 2)) {
                retryMayWrite.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            }
            writeAll(effects, items, connection);
            items.stream().filter(item -> isAttempt(item, failing, 1))
                    .forEach(item -> item.fail(new IllegalStateException("fails once " + failing)));
        }), relaxedSession().batchLimit(100).queueSize(100).build());
        List<Long> others = scenario.ids().stream().filter(id -> id != failing).toList();

        await().atMost(PATIENCE).until(() -> !effects.messageIds().isEmpty());

        assertThat(effects.messageIds()).as("the range's effects, visible all at once, one by one in id order")
                .containsExactlyElementsOf(others);
        assertThat(scenario.tables().exception(failing)).as("the failure, committed with them").hasValueSatisfying(
                row -> assertThat(row.lastError()).contains("fails once " + failing));
        retryMayWrite.countDown();
        await().atMost(PATIENCE).until(() -> effects.has(failing) && scenario.tables().exceptions().isEmpty());

        assertThat(effects.messageIds()).containsExactlyInAnyOrderElementsOf(scenario.ids());
        List<BatchCall> calls = ledger.batchCalls();
        assertThat(calls).as("the batch, the range one at a time, the retry").hasSize(102);
        assertThat(calls.get(0).ids()).as("the batch").containsExactlyElementsOf(scenario.ids());
        assertThat(calls.subList(1, 102)).as("calls after the batch").extracting(BatchCall::size).containsOnly(1);
        assertThat(calls.subList(1, 101)).as("the one-at-a-time pass").flatExtracting(BatchCall::metas)
                .extracting(MessageMeta::messageId, MessageMeta::attempt)
                .containsExactlyElementsOf(scenario.ids().stream().map(id -> tuple(id, 1)).toList());
        assertThat(calls.get(101).metas()).as("the retry").extracting(MessageMeta::messageId, MessageMeta::attempt)
                .containsExactly(tuple(failing, 2));
        assertThat(ledger.runsOf(failing)).extracting(Run::attempt, Run::result).containsExactly(
                tuple(1, Result.FAILURE), tuple(1, Result.FAILURE), tuple(2, Result.SUCCESS));
        for (long id : others) {
            assertThat(ledger.runsOf(id)).as("runs of %d: in the batch, then alone", id).extracting(Run::attempt)
                    .containsExactly(1, 1);
        }
        assertThat(scenario.tables().log(failing)).extracting(LogRow::attempt, LogRow::status)
                .containsExactly(tuple(0, "failure"));
    }

    @Test
    void aBatchCallThatThrowsRollsBackAndEveryItemRunsAloneOnce() throws Exception {
        DeliveryScenario scenario = scenario("batchthrows", quickRetries(3, Duration.ofSeconds(5)), 100);
        Effects effects = effects("batchthrows");
        ConsumerSession session = start(scenario, ledger.batches((items, connection) -> {
            writeAll(effects, items, connection);
            if (ledger.batchCalls().size() == 1) {
                throw new IllegalStateException("the first batch call fails");
            }
        }), relaxedSession().batchLimit(100).queueSize(100).build());

        await().atMost(PATIENCE).until(() -> scenario.tables().cursor().committed() >= scenario.last());
        session.close();

        // Had the batch's rows not been rolled back, the primary key would have refused the items' own.
        assertThat(effects.messageIds()).containsExactlyElementsOf(scenario.ids());
        List<BatchCall> calls = ledger.batchCalls();
        assertThat(calls).hasSize(101);
        assertThat(calls.get(0).ids()).as("the batch").containsExactlyElementsOf(scenario.ids());
        assertThat(calls.subList(1, 101)).as("the one-at-a-time pass").flatExtracting(BatchCall::metas)
                .extracting(MessageMeta::messageId, MessageMeta::attempt)
                .containsExactlyElementsOf(scenario.ids().stream().map(id -> tuple(id, 1)).toList());
        assertThat(calls.subList(1, 101)).extracting(BatchCall::size).containsOnly(1);
        for (long id : scenario.ids()) {
            assertThat(ledger.runsOf(id)).as("runs of %d", id).extracting(Run::attempt, Run::result)
                    .containsExactly(tuple(1, Result.FAILURE), tuple(1, Result.SUCCESS));
        }
        assertThat(scenario.tables().exceptions()).isEmpty();
        assertThat(scenario.tables().log()).as("failures logged").isEmpty();
        assertThat(scenario.tables().leases()).isEmpty();
        assertThat(session.counters().success()).isEqualTo(100);
        assertThat(session.counters().dead()).isZero();
    }

    @Test
    void anOrderedKeyKeepsItsOrderThroughTheOneAtATimePass() throws Exception {
        DeliveryScenario scenario = scenario("batchordered", quickRetries(3, Duration.ofSeconds(5)), 0);
        Effects effects = effects("batchordered");
        // One at a time, so that the keys alternate in id order too (a produceBatch writes its messages by key).
        Map<Long, String> keyOf = new HashMap<>();
        List<Long> ids = new ArrayList<>();
        try (Producer<Numbered> producer = scenario.stream().producer().register()) {
            for (int n = 1; n <= 40; n++) {
                String key = n % 2 == 1 ? "A" : "B";
                long id = producer.produce(new Numbered(n), ordered(key)).id();
                keyOf.put(id, key);
                ids.add(id);
            }
        }
        assertThat(ids).isSorted();
        long failing = ids.get(4);
        start(scenario, ledger.batches((items, connection) -> {
            writeAll(effects, items, connection);
            items.stream().filter(item -> isAttempt(item, failing, 1))
                    .forEach(item -> item.fail(new IllegalStateException("fails on attempt 1: " + failing)));
        }), relaxedSession().batchLimit(40).queueSize(40).build());

        await().atMost(PATIENCE).until(() -> effects.messageIds().size() == 40
                && scenario.tables().exceptions().isEmpty());

        List<Long> committed = effects.messageIds();
        assertThat(committed).containsExactlyInAnyOrderElementsOf(ids);
        for (String key : List.of("A", "B")) {
            assertThat(committed.stream().filter(id -> keyOf.get(id).equals(key)).toList())
                    .as("key %s in the order its effects committed", key).hasSize(20).isSorted();
        }
        List<BatchCall> calls = ledger.batchCalls();
        assertThat(calls.get(0).ids()).as("the batch").containsExactlyElementsOf(ids);
        assertThat(calls.subList(1, calls.size())).as("calls after the batch").extracting(BatchCall::size)
                .containsOnly(1);
        int retry = indexOf(calls, failing, 2);
        assertThat(retry).as("index of the failing message's retry").isPositive();
        assertThat(ledger.runsOf(failing)).extracting(Run::attempt, Run::result).containsExactly(
                tuple(1, Result.FAILURE), tuple(1, Result.FAILURE), tuple(2, Result.SUCCESS));
        for (long id : ids) {
            if (id == failing) {
                continue;
            }
            List<Integer> alone = IntStream.range(1, calls.size()).filter(i -> calls.get(i).ids().contains(id))
                    .boxed().toList();
            assertThat(alone).as("single-item calls of %d", id).hasSize(1);
            assertThat(ledger.runsOf(id)).as("runs of %d", id).hasSize(2)
                    .extracting(run -> run.meta().messageKey()).containsOnly(keyOf.get(id));
            if (keyOf.get(id).equals("A") && id > failing) {
                assertThat(alone.get(0)).as("the call of deferred message %d, after the retry of %d", id, failing)
                        .isGreaterThan(retry);
            } else {
                assertThat(alone.get(0)).as("the call of %d, in the one-at-a-time pass", id).isLessThan(retry);
            }
        }
    }

    @Test
    void anItemFailedTerminallyIsDeadWithoutEffectAndTheOthersCommit() throws Exception {
        DeliveryScenario scenario = scenario("batchterminal", quickRetries(3, Duration.ofSeconds(5)), 10);
        Effects effects = effects("batchterminal");
        long poison = scenario.ids().get(3);
        ConsumerSession session = start(scenario, ledger.batches((items, connection) -> {
            writeAll(effects, items, connection);
            items.stream().filter(item -> item.meta().messageId() == poison)
                    .forEach(item -> item.fail(Outcome.terminal("poison " + poison)));
        }), relaxedSession().batchLimit(10).queueSize(10).build());

        ExceptionRow dead = awaitStatus(scenario.tables(), poison, "dead");
        await().atMost(PATIENCE).until(() -> scenario.tables().cursor().committed() >= scenario.last());
        session.close();

        List<Long> others = scenario.ids().stream().filter(id -> id != poison).toList();
        assertThat(effects.messageIds()).as("no effect of the dead message").containsExactlyElementsOf(others);
        assertThat(dead.lastError()).contains("poison " + poison);
        assertThat(ledger.runsOf(poison)).extracting(Run::attempt, Run::result)
                .containsExactly(tuple(1, Result.TERMINAL), tuple(1, Result.TERMINAL));
        List<BatchCall> calls = ledger.batchCalls();
        assertThat(calls).extracting(BatchCall::size).containsExactly(10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
        assertThat(calls.subList(1, calls.size())).flatExtracting(BatchCall::ids)
                .containsExactlyElementsOf(scenario.ids());
        assertThat(scenario.tables().exceptions()).extracting(ExceptionRow::messageId).containsExactly(poison);
        assertThat(session.counters().dead()).isEqualTo(1);
        assertThat(session.counters().success()).isEqualTo(9);
    }

    /**
     * README: a batch call handles no single delivery, so inside it MessageMeta.current() throws (naming
     * BatchItem.meta()) and find() is empty, in the batch and in the one-at-a-time calls alike.
     */
    @Test
    void noDeliveryIsCurrentInsideABatchCallOfManyItemsOrOfOne() throws Exception {
        DeliveryScenario scenario = scenario("batchmeta", quickRetries(3, Duration.ofSeconds(5)), 3);
        Effects effects = effects("batchmeta");
        List<String> current = new CopyOnWriteArrayList<>();
        ConsumerSession session = start(scenario, ledger.batches((items, connection) -> {
            try {
                current.add(items.size() + " items: current " + MessageMeta.current().messageId());
            } catch (IllegalStateException refused) {
                current.add(items.size() + " items: " + refused.getMessage() + ", find "
                        + MessageMeta.find().isPresent());
            }
            writeAll(effects, items, connection);
            if (items.size() > 1) {
                throw new IllegalStateException("the batch fails, so its items run again one at a time");
            }
        }), relaxedSession().batchLimit(3).queueSize(3).build());

        await().atMost(PATIENCE).until(() -> scenario.tables().cursor().committed() >= scenario.last());
        session.close();

        String refused = "MessageMeta.current() names no single delivery inside a BatchHandler call; read each"
                + " BatchItem's meta(), find false";
        assertThat(current).containsExactly("3 items: " + refused, "1 items: " + refused, "1 items: " + refused,
                "1 items: " + refused);
        assertThat(effects.messageIds()).containsExactlyElementsOf(scenario.ids());
    }

    // ---------------------------------------------------------------------------------------------------

    private ConsumerSession start(DeliveryScenario scenario, BatchHandler<Numbered> handler, ConsumeOptions options) {
        return scenario.startBatches(handler, options, sessions);
    }

    /** The batch handler's write: a row per item, as one JDBC batch on the lent connection. */
    private static void writeAll(Effects effects, List<BatchItem<Numbered>> items, Connection connection)
            throws SQLException {
        effects.writeAll(connection, items.stream().map(BatchItem::meta).toList());
    }

    private static boolean isAttempt(BatchItem<Numbered> item, long messageId, int attempt) {
        return item.meta().messageId() == messageId && item.meta().attempt() == attempt;
    }

    private static boolean contains(List<BatchItem<Numbered>> items, long messageId, int attempt) {
        return items.stream().anyMatch(item -> isAttempt(item, messageId, attempt));
    }

    /** The index of the first call with message {@code messageId} at {@code attempt}, or -1. */
    private static int indexOf(List<BatchCall> calls, long messageId, int attempt) {
        return IntStream.range(0, calls.size()).filter(i -> calls.get(i).has(messageId, attempt)).findFirst()
                .orElse(-1);
    }
}
