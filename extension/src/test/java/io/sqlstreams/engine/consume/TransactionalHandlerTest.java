package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.TransactionalHandler;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.DeliveryLedger.Result;
import io.sqlstreams.engine.consume.DeliveryLedger.Run;
import io.sqlstreams.engine.consume.DeliveryTables.ExceptionRow;
import io.sqlstreams.engine.consume.DeliveryTables.LogRow;
import io.sqlstreams.testing.PostgresTest;

/**
 * Sessions run with a {@link TransactionalHandler}: each handler writes one row per message into an effects table of
 * its own through the connection the library lends it, and the table's primary key rejects a second row for the same
 * message. So an effects table holding exactly the expected messages proves each effect committed exactly once, and
 * its absence from a message that failed proves the failure rolled it back.
 */
@PostgresTest
class TransactionalHandlerTest extends TransactionalTestBase {

    @Test
    void threeSessionsOfOneGroupCommitEveryMessagesEffectExactlyOnce() throws Exception {
        StreamHandle<Numbered> stream = client.stream("txhappy", Numbered.class);
        stream.register();
        Effects effects = effects("happy");
        ConsumerConfig declaration = quickRetries(3, Duration.ofSeconds(5));
        List<ConsumerSession> group = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            EngineClient own = EngineFixtures.client(database, logger);
            ConsumerInstance<Numbered> instance = own.stream("txhappy", Numbered.class).consumer("txhappy.g")
                    .register(declaration);
            group.add(DeliveryScenario.startSession(instance,
                    ledger.transactional((message, meta, connection) -> effects.write(connection)),
                    relaxedSession().batchLimit(8).queueSize(16).messageConcurrency(2).build(), sessions));
        }
        DeliveryTables tables = DeliveryTables.of(database, stream, "txhappy.g");

        List<Long> produced = new ArrayList<>();
        try (Producer<Numbered> producer = stream.producer().register()) {
            for (int batch = 0; batch < 40; batch++) {
                int first = batch * 25 + 1;
                producer.produceBatch(IntStream.range(first, first + 25).mapToObj(n -> ProduceItem.of(new Numbered(n)))
                        .toList()).forEach(result -> produced.add(result.id()));
            }
        }
        assertThat(produced).hasSize(1000).doesNotHaveDuplicates();
        long last = Collections.max(produced);

        await().atMost(PATIENCE).until(() -> tables.cursor().committed() >= last);

        assertThat(effects.messageIds()).as("committed effects").containsExactlyInAnyOrderElementsOf(produced);
        assertThat(tables.exceptions()).isEmpty();
        assertThat(tables.leases()).isEmpty();
        assertThat(tables.cursor().committed()).isEqualTo(last);
        long successes = group.stream().mapToLong(session -> session.counters().success()).sum();
        assertThat(successes).as("success counters of the three sessions").isEqualTo(1000);
        assertThat(group).allSatisfy(session -> {
            assertThat(session.counters().leaseLost()).isZero();
            assertThat(session.counters().dead()).isZero();
        });
    }

    @Test
    void aFailingMessageLosesOnlyItsOwnWritesAndItsRetryCommitsThemOnce() throws Exception {
        DeliveryScenario scenario = scenario("range", quickRetries(3, Duration.ofSeconds(5)), 100);
        Effects effects = effects("range");
        long failing = scenario.ids().get(41);
        CountDownLatch retryMayWrite = new CountDownLatch(1);
        start(scenario, ledger.transactional((message, meta, connection) -> {
            if (meta.messageId() == failing && meta.attempt() == 2) {
                retryMayWrite.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            }
            effects.write(connection);
            if (meta.messageId() == failing && meta.attempt() == 1) {
                throw new IllegalStateException("fails once " + meta.messageId());
            }
        }), relaxedSession().batchLimit(100).queueSize(100).build());
        List<Long> others = scenario.ids().stream().filter(id -> id != failing).toList();

        await().atMost(PATIENCE).until(() -> !effects.messageIds().isEmpty());

        assertThat(effects.messageIds()).as("the range's effects, visible all at once")
                .containsExactlyInAnyOrderElementsOf(others);
        assertThat(scenario.tables().exception(failing)).as("the failure, committed with them").hasValueSatisfying(
                row -> assertThat(row.lastError()).contains("fails once " + failing));
        retryMayWrite.countDown();
        await().atMost(PATIENCE).until(() -> effects.has(failing) && scenario.tables().exceptions().isEmpty());

        assertThat(effects.messageIds()).containsExactlyInAnyOrderElementsOf(scenario.ids());
        assertThat(ledger.runsOf(failing)).extracting(Run::attempt).containsExactly(1, 2);
        assertThat(ledger.duplicates()).as("messages that ran more than once").containsOnlyKeys(failing);
        assertThat(scenario.tables().log(failing)).extracting(LogRow::attempt, LogRow::status)
                .containsExactly(tuple(0, "failure"));
    }

    @Test
    void anOrderedKeyKeepsItsOrderThroughAFailure() throws Exception {
        DeliveryScenario scenario = scenario("ordered", quickRetries(3, Duration.ofSeconds(5)), 0);
        Effects effects = effects("ordered");
        Map<Long, String> keyOf = new HashMap<>();
        List<ProduceResult> results;
        try (Producer<Numbered> producer = scenario.stream().producer().register()) {
            results = producer.produceBatch(IntStream.rangeClosed(1, 40)
                    .mapToObj(n -> ProduceItem.of(new Numbered(n), ordered(n % 2 == 1 ? "A" : "B"))).toList());
        }
        for (int i = 0; i < results.size(); i++) {
            keyOf.put(results.get(i).id(), i % 2 == 0 ? "A" : "B");
        }
        long failing = results.get(4).id();
        start(scenario, ledger.transactional((message, meta, connection) -> {
            effects.write(connection);
            if (meta.messageId() == failing && meta.attempt() == 1) {
                throw new IllegalStateException("fails once " + meta.messageId());
            }
        }), relaxedSession().batchLimit(40).queueSize(40).build());

        await().atMost(PATIENCE).until(() -> effects.messageIds().size() == 40
                && scenario.tables().exceptions().isEmpty());

        List<Long> committed = effects.messageIds();
        assertThat(committed).containsExactlyInAnyOrderElementsOf(keyOf.keySet());
        for (String key : List.of("A", "B")) {
            assertThat(committed.stream().filter(id -> keyOf.get(id).equals(key)).toList())
                    .as("key %s in the order its effects committed", key).hasSize(20).isSorted();
        }
        assertThat(ledger.duplicates()).as("later messages of the key were deferred without running")
                .containsOnlyKeys(failing);
        assertThat(ledger.runsOf(failing)).extracting(Run::attempt).containsExactly(1, 2);
        assertThat(keyOf).allSatisfy((id, key) -> assertThat(ledger.runsOf(id))
                .extracting(run -> run.meta().messageKey()).containsOnly(key));
    }

    @Test
    void aLostLeaseRollsTheWholeRangeBackAndItRunsAgain() throws Exception {
        DeliveryScenario scenario = scenario("leaselost", quickRetries(3, Duration.ofSeconds(2)), 5);
        Effects effects = effects("leaselost");
        long blocking = scenario.ids().get(2);
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ConsumerSession session = start(scenario, ledger.transactional((message, meta, connection) -> {
            effects.write(connection);
            if (meta.messageId() == blocking && ledger.runCount(blocking) == 1) {
                blocked.countDown();
                release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            }
        }), fastSession().batchLimit(10).build());

        assertThat(blocked.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(scenario.tables().replaceLeaseTokens()).as("leases taken from the session").isEqualTo(1);
        release.countDown();
        await().atMost(PATIENCE).until(() -> session.counters().leaseLost() >= 1);
        await("the range reclaimed after its lease expired and run again").atMost(PATIENCE)
                .until(() -> effects.messageIds().size() == 5 && scenario.tables().leases().isEmpty()
                        && scenario.tables().cursor().committed() >= scenario.last());

        // A first-run row that had committed would make the second run's insert break the primary key.
        assertThat(effects.messageIds()).containsExactlyInAnyOrderElementsOf(scenario.ids());
        for (long id : scenario.ids().subList(0, 3)) {
            assertThat(ledger.runCount(id)).as("runs of message %d, written before the lease was lost", id)
                    .isEqualTo(2);
        }
        for (long id : scenario.ids()) {
            List<Run> runs = ledger.runsOf(id);
            assertThat(runs.get(runs.size() - 1).result()).as("last run of %d", id).isEqualTo(Result.SUCCESS);
        }
        assertThat(scenario.tables().exceptions()).isEmpty();
        assertThat(scenario.tables().log()).as("failures logged").isEmpty();
    }

    @Test
    void theLentConnectionRefusesToEndOrLeaveTheTransaction() throws Exception {
        DeliveryScenario scenario = scenario("refusals", quickRetries(3, Duration.ofSeconds(5)), 1);
        Effects effects = effects("refusals");
        long id = scenario.ids().get(0);
        Map<String, String> refusals = new ConcurrentHashMap<>();
        AtomicReference<Boolean> autoCommitAfterwards = new AtomicReference<>();
        start(scenario, ledger.transactional((message, meta, connection) -> {
            refuse(refusals, "commit", connection::commit);
            refuse(refusals, "rollback", connection::rollback);
            refuse(refusals, "close", connection::close);
            refuse(refusals, "setAutoCommit", () -> connection.setAutoCommit(true));
            refuse(refusals, "abort", () -> connection.abort(Runnable::run));
            try (Statement statement = connection.createStatement()) {
                refuse(refusals, "statement's connection", () -> statement.getConnection().commit());
                try (ResultSet rows = statement.executeQuery("SELECT 1")) {
                    refuse(refusals, "result's statement's connection",
                            () -> rows.getStatement().getConnection().close());
                }
            }
            refuse(refusals, "metadata's connection", () -> connection.getMetaData().getConnection().rollback());
            refuse(refusals, "unwrapped", () -> connection.unwrap(Connection.class).close());
            autoCommitAfterwards.set(connection.getAutoCommit());
            Savepoint own = connection.setSavepoint();
            effects.write(connection);
            connection.rollback(own);
            // Had the rollback to the handler's own savepoint not worked, the primary key would reject this.
            effects.write(connection);
        }), relaxedSession().batchLimit(10).build());

        await().atMost(PATIENCE).until(() -> scenario.tables().cursor().committed() >= id);

        assertThat(refusals).containsOnlyKeys("commit", "rollback", "close", "setAutoCommit", "abort",
                "statement's connection", "result's statement's connection", "metadata's connection", "unwrapped");
        assertThat(refusals).allSatisfy((call, message) ->
                assertThat(message).as("what %s threw", call).startsWith("SQL0157"));
        assertThat(autoCommitAfterwards.get()).isFalse();
        assertThat(ledger.runsOf(id)).extracting(Run::result).containsExactly(Result.SUCCESS);
        assertThat(effects.messageIds()).containsExactly(id);
        assertThat(scenario.tables().exceptions()).isEmpty();
    }

    @Test
    void aHandlerOutlivingTimeoutAndGraceLosesTheRangesWritesAndEveryEffectStillLandsOnce() throws Exception {
        DeliveryScenario scenario = scenario("stubborn", quickRetries(3, Duration.ofSeconds(1)), 10);
        Effects effects = effects("stubborn");
        int stubbornIndex = 4;
        long stubborn = scenario.ids().get(stubbornIndex);
        CountDownLatch letGo = new CountDownLatch(1);
        start(scenario, ledger.transactional((message, meta, connection) -> {
            effects.write(connection);
            if (meta.messageId() == stubborn && meta.attempt() == 1) {
                outlastInterrupts(letGo, Duration.ofSeconds(4));
            }
        }), relaxedSession().batchLimit(10).timeoutGrace(Duration.ofMillis(500)).recordMargin(Duration.ofSeconds(1))
                .build());

        // Its retry runs while the abandoned first run still loops: the failure was recorded without waiting for it.
        await("the timed-out message retried").atMost(PATIENCE).until(() -> ledger.runCount(stubborn) == 2);
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> effects.messageIds().size() == 10
                && scenario.tables().exceptions().isEmpty());

        assertThat(effects.messageIds()).containsExactlyInAnyOrderElementsOf(scenario.ids());
        assertThat(ledger.runsOf(stubborn)).extracting(Run::attempt).containsExactly(1, 2);
        assertThat(scenario.tables().log(stubborn)).extracting(LogRow::attempt, LogRow::status)
                .containsExactly(tuple(0, "failure"));
        for (int i = 0; i < scenario.ids().size(); i++) {
            long id = scenario.ids().get(i);
            if (id == stubborn) {
                continue;
            }
            // Before the stubborn message: ran in the aborted transaction, then again. After it: never ran there.
            assertThat(ledger.runCount(id)).as("runs of message %d", id).isEqualTo(i < stubbornIndex ? 2 : 1);
            assertThat(scenario.tables().log(id)).as("log of deferred message %d", id)
                    .extracting(LogRow::status).doesNotContain("failure");
        }
    }

    @Test
    void terminalAndRetryOutcomesOnBothPathsKeepOrDropTheirWrites() throws Exception {
        DeliveryScenario scenario = scenario("outcomes", quickRetries(3, Duration.ofSeconds(5)), 6);
        Effects effects = effects("outcomes");
        long poisonInRange = scenario.ids().get(1);
        long poisonOnRetry = scenario.ids().get(2);
        long flaky = scenario.ids().get(4);
        ConsumerSession session = start(scenario, ledger.transactional((message, meta, connection) -> {
            effects.write(connection);
            long id = meta.messageId();
            if ((id == flaky || id == poisonOnRetry) && meta.attempt() == 1) {
                throw new IllegalStateException("fails once " + id);
            }
            if (id == poisonInRange || id == poisonOnRetry) {
                throw Outcome.terminal("poison " + id);
            }
        }), relaxedSession().batchLimit(10).build());

        ExceptionRow deadInRange = awaitStatus(scenario.tables(), poisonInRange, "dead");
        ExceptionRow deadOnRetry = awaitStatus(scenario.tables(), poisonOnRetry, "dead");
        await().atMost(PATIENCE).until(() -> effects.has(flaky) && scenario.tables().exception(flaky).isEmpty()
                && scenario.tables().cursor().committed() >= scenario.last());
        session.close();

        assertThat(effects.messageIds()).as("no effect of a dead message").containsExactlyInAnyOrderElementsOf(
                scenario.ids().stream().filter(id -> id != poisonInRange && id != poisonOnRetry).toList());
        assertThat(deadInRange.lastError()).contains("poison " + poisonInRange);
        assertThat(deadOnRetry.lastError()).contains("poison " + poisonOnRetry);
        assertThat(ledger.runsOf(poisonInRange)).extracting(Run::result).containsExactly(Result.TERMINAL);
        assertThat(ledger.runsOf(poisonOnRetry)).extracting(Run::result)
                .containsExactly(Result.FAILURE, Result.TERMINAL);
        assertThat(scenario.tables().log(poisonOnRetry)).extracting(LogRow::attempt, LogRow::status)
                .containsExactly(tuple(0, "failure"), tuple(1, "failure"));
        assertThat(ledger.runsOf(flaky)).extracting(Run::attempt, Run::result)
                .containsExactly(tuple(1, Result.FAILURE), tuple(2, Result.SUCCESS));
        assertThat(scenario.tables().exceptions()).extracting(ExceptionRow::messageId)
                .containsExactlyInAnyOrder(poisonInRange, poisonOnRetry);
        assertThat(session.counters().dead()).isEqualTo(2);
    }

    /**
     * README: messageConcurrency is the number of ranges a transactional session runs at a time. With every other
     * option at its default (batchLimit 4, queueSize unset), a session with messageConcurrency 4 runs four ranges'
     * transactions at once, each blocked in its handler on a connection of its own, while a fifth range waits in the
     * key gate for an ordered key the first one holds. (The waiting range holds its room in the local queue: a queue
     * of one batch let nothing else be claimed behind it.)
     */
    @Test
    void atTheDefaultQueueSizeMessageConcurrencyRangesRunTheirTransactionsAtOnce() throws Exception {
        int concurrency = 4;
        int batch = ConsumeOptions.DEFAULT_BATCH_LIMIT;
        DeliveryScenario scenario = scenario("inflight", quickRetries(3, PATIENCE), 0);
        Effects effects = effects("inflight");
        List<Long> ids = new ArrayList<>();
        try (Producer<Numbered> producer = scenario.stream().producer().register()) {
            for (int n = 0; n < (concurrency + 1) * batch; n++) {
                // one at a time, so ids follow n: the first messages of the first two ranges share an ordered key
                ids.add(producer.produce(new Numbered(n + 1),
                        n == 0 || n == batch ? ordered("shared") : ProduceOptions.none()).id());
            }
        }
        Map<Integer, Long> inside = new ConcurrentHashMap<>();
        CountDownLatch release = new CountDownLatch(1);
        // a lease long enough that the gate never defers the waiting range's chain while the test looks
        ConsumeOptions.Builder waitingRangeKeepsItsKeyChain = relaxedSession().queueMargin(Duration.ofMinutes(2));
        start(scenario, ledger.transactional((message, meta, connection) -> {
            int backend = backendPid(connection);
            inside.put(backend, meta.messageId());
            try {
                release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                inside.remove(backend);
            }
            effects.write(connection);
        }), waitingRangeKeepsItsKeyChain.messageConcurrency(concurrency).build());

        try {
            await("%d range transactions inside the handler at once".formatted(concurrency))
                    .atMost(PATIENCE).pollInterval(10, TimeUnit.MILLISECONDS)
                    .until(() -> inside.size() == concurrency);
            assertThat(inside.values()).as("the first message of every range but the one waiting for the key")
                    .containsExactlyInAnyOrder(ids.get(0), ids.get(2 * batch), ids.get(3 * batch), ids.get(4 * batch));
        } finally {
            release.countDown();
        }

        await().atMost(PATIENCE).until(() -> effects.messageIds().size() == ids.size());
        assertThat(effects.messageIds()).containsExactlyInAnyOrderElementsOf(ids);
    }

    // ---------------------------------------------------------------------------------------------------

    private ConsumerSession start(DeliveryScenario scenario, TransactionalHandler<Numbered> handler,
                                  ConsumeOptions options) {
        return scenario.start(handler, options, sessions);
    }

    private static int backendPid(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
            row.next();
            return row.getInt(1);
        }
    }

    @FunctionalInterface
    private interface JdbcCall {
        void run() throws SQLException;
    }

    /** Makes {@code call} and records what it threw, or that it was not refused. */
    private static void refuse(Map<String, String> refusals, String name, JdbcCall call) {
        try {
            call.run();
            refusals.put(name, "not refused");
        } catch (SQLException refused) {
            refusals.put(name, String.valueOf(refused.getMessage()));
        }
    }

    /** Stays busy past the handler's timeout and grace, swallowing interrupts, until let go or {@code cap} passed. */
    /** Waits for {@code letGo} (at most {@code cap}), swallowing the interrupts of its timeout meanwhile. */
    private static void outlastInterrupts(CountDownLatch letGo, Duration cap) {
        long until = System.nanoTime() + cap.toNanos();
        boolean interrupted = false;
        while (System.nanoTime() < until) {
            try {
                if (letGo.await(until - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                    break;
                }
            } catch (InterruptedException ignored) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
