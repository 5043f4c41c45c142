package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.produceNumbered;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.sqlstreams.CompactionOptions;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.DeliveryLedger.Result;
import io.sqlstreams.engine.consume.DeliveryTables.ExceptionRow;
import io.sqlstreams.engine.consume.DeliveryTables.LogRow;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;

/**
 * What a consume session does with each outcome a handler can have, checked twice: against the test's own
 * ledger of handler runs and against the group's exception queue, delivery log and cursor.
 */
@PostgresTest
class DeliveryOutcomesTest extends DeliveryTestBase {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /** The same stream name read at another schema version. */
    @SchemaVersion(2)
    public record NumberedV2(String label) {
    }


    @Test
    void threeSessionsOfOneGroupHandleEveryMessageExactlyOnce() {
        StreamHandle<Numbered> stream = client.stream("happy", Numbered.class);
        stream.register();
        ConsumerConfig declaration = quickRetries(3, Duration.ofSeconds(5));
        List<ConsumerSession> group = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            EngineClient own = EngineFixtures.client(database, logger);
            ConsumerInstance<Numbered> instance = own.stream("happy", Numbered.class).consumer("happy.g")
                    .register(declaration);
            group.add(start(instance, ledger.succeeding(), relaxedSession().batchLimit(8).build()));
        }
        DeliveryTables tables = DeliveryTables.of(database, stream, "happy.g");

        List<Long> produced = new ArrayList<>();
        try (Producer<Numbered> producer = stream.producer().register()) {
            for (int batch = 0; batch < 80; batch++) {
                int first = batch * 25 + 1;
                producer.produceBatch(IntStream.range(first, first + 25).mapToObj(n -> ProduceItem.of(new Numbered(n)))
                        .toList()).forEach(result -> produced.add(result.id()));
            }
        }
        assertThat(produced).hasSize(2000).doesNotHaveDuplicates();
        long last = Collections.max(produced);

        await().atMost(PATIENCE).until(() -> tables.cursor().committed() >= last);

        assertThat(ledger.duplicates()).as("duplicates; start-guard misses %s; reclaims %s",
                logger.withCode("SQL0105"), logger.withCode("SQL0026")).isEmpty();
        ledger.assertEachSucceededOnce(produced);
        assertThat(tables.ids(1)).as("message log rows").containsExactlyInAnyOrderElementsOf(produced);
        assertThat(tables.exceptions()).isEmpty();
        assertThat(tables.leases()).isEmpty();
        DeliveryTables.Cursor cursor = tables.cursor();
        assertThat(cursor.claimed()).isEqualTo(last);
        assertThat(cursor.committed()).isEqualTo(last);
        assertThat(tables.head()).isEqualTo(last);
        long successes = group.stream().mapToLong(session -> session.counters().success()).sum();
        assertThat(successes).as("success counters of the three sessions").isEqualTo(2000);
        assertThat(group).allSatisfy(session -> {
            assertThat(session.counters().reclaimed()).isZero();
            assertThat(session.counters().leaseLost()).isZero();
            assertThat(session.counters().dead()).isZero();
        });
    }

    @Test
    void aFailingMessageRunsOnceAndThreeRetriesOnTheBackoffTableThenDies() {
        ConsumerConfig declaration = ConsumerConfig.builder()
                .exceptionInitialBackoff(Duration.ofMillis(300))
                .message(MessageOptions.builder().timeout(Duration.ofSeconds(5)).retry(RetryPolicy.builder()
                        .maxRetries(3).baseDelay(Duration.ofMillis(200)).maxDelay(Duration.ofSeconds(5)).build())
                        .build())
                .build();
        DeliveryScenario scenario = scenario("budget", DeliveryLogMode.FAILURES, declaration, 3);
        long failing = scenario.ids().get(1);
        start(scenario, ledger.handler((message, meta) -> {
            if (meta.messageId() == failing) {
                throw new IllegalStateException("budget boom " + meta.messageId());
            }
        }));

        ExceptionRow dead = awaitStatus(scenario.tables(), failing, "dead");

        assertThat(ledger.runCount(failing)).as("1 initial run + MaxRetries 3 retries").isEqualTo(4);
        assertThat(ledger.runsOf(failing)).extracting(DeliveryLedger.Run::attempt).containsExactly(1, 2, 3, 4);
        assertThat(dead.attempts()).isEqualTo(3);
        assertThat(dead.delays()).isZero();
        assertThat(dead.lastError()).contains("IllegalStateException: budget boom " + failing);
        await("SQL0030, logged once the dead row is written").atMost(PATIENCE).untilAsserted(() ->
                assertThat(logger.withCode("SQL0030")).anySatisfy(line ->
                        assertThat(line).contains("message " + failing + " ")));
        List<LogRow> log = scenario.tables().log(failing);
        assertThat(log).extracting(LogRow::attempt).containsExactly(0, 1, 2, 3);
        assertThat(log).extracting(LogRow::status).containsOnly("failure");
        assertThat(log).allSatisfy(row -> assertThat(row.error()).contains("budget boom " + failing));
        RetryPolicy retry = declaration.resolvedMessage().retry();
        List<Long> scheduled = List.of(300L, retry.calculateDelay(0).toMillis(), retry.calculateDelay(1).toMillis());
        assertThat(scheduled).containsExactly(300L, 200L, 400L);
        List<Long> gaps = ledger.startGapsMillis(failing);
        assertThat(gaps).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(gaps.get(i)).as("gap before retry %d (scheduled %d ms)", i + 1, scheduled.get(i))
                    .isGreaterThanOrEqualTo(scheduled.get(i));
        }
        assertSiblingsSucceededOnce(scenario, failing);
    }

    @Test
    void retriesAndDelaysDueBeforeTheNextPollRunWhenDue() {
        ConsumerConfig declaration = briefRetries(Duration.ofSeconds(5)).build();
        DeliveryScenario scenario = scenario("duesoon", DeliveryLogMode.FAILURES, declaration, 3);
        long failing = scenario.ids().get(0);
        long delayed = scenario.ids().get(2);
        Duration poll = Duration.ofMinutes(10);
        scenario.start(ledger.handler((message, meta) -> {
            if (meta.messageId() == failing && ledger.runCount(failing) <= 2) {
                throw new IllegalStateException("fails twice " + failing);
            }
            if (meta.messageId() == delayed && ledger.runCount(delayed) == 1) {
                throw Outcome.delay(Duration.ofMillis(50));
            }
        }), relaxedSession().claimPollRate(poll).batchLimit(10).build(), sessions);

        await("both retried long before the " + poll + " poll; the first claim ran at the start")
                .atMost(PATIENCE).until(() -> ledger.count(failing, Result.SUCCESS) == 1
                        && ledger.count(delayed, Result.SUCCESS) == 1 && scenario.tables().exceptions().isEmpty());

        assertThat(ledger.runsOf(failing)).extracting(DeliveryLedger.Run::attempt).containsExactly(1, 2, 3);
        assertThat(ledger.runsOf(delayed)).extracting(DeliveryLedger.Run::result)
                .containsExactly(Result.DELAY, Result.SUCCESS);
        assertThat(ledger.runsOf(scenario.ids().get(1))).extracting(DeliveryLedger.Run::result)
                .containsExactly(Result.SUCCESS);
    }

    @Test
    void retriesOfDistinctKeysRunAtOnceUpToMessageConcurrencyAndThoseOfOneKeyOneAfterAnother() throws Exception {
        ConsumerConfig declaration = briefRetries(Duration.ofSeconds(30))
                .concurrencyOverride(Concurrency.EXCLUSIVE).build();
        DeliveryScenario scenario = scenario("retrylanes", DeliveryLogMode.FAILURES, declaration, 0);
        List<String> keys = List.of("a", "b", "c", "a", "b", "c");
        List<Long> ids = new ArrayList<>();
        try (Producer<Numbered> producer = scenario.stream().producer().register()) {
            for (int i = 0; i < keys.size(); i++) {
                ids.add(producer.produce(new Numbered(i + 1), ProduceOptions.builder().messageKey(keys.get(i))
                        .build()).id());
            }
        }
        CountDownLatch firstRetriesTogether = new CountDownLatch(3);
        Set<Long> retriedTogether = ConcurrentHashMap.newKeySet();
        Map<String, AtomicInteger> runningPerKey = new ConcurrentHashMap<>();
        AtomicInteger sameKeyOverlaps = new AtomicInteger();
        scenario.start(ledger.handler((message, meta) -> {
            AtomicInteger ofKey = runningPerKey.computeIfAbsent(meta.messageKey(), key -> new AtomicInteger());
            if (ofKey.incrementAndGet() > 1) {
                sameKeyOverlaps.incrementAndGet();
            }
            try {
                if (ledger.runCount(meta.messageId()) == 1) {
                    throw new IllegalStateException("first run fails " + meta.messageId());
                }
                firstRetriesTogether.countDown();
                if (firstRetriesTogether.await(10, TimeUnit.SECONDS)) {
                    retriedTogether.add(meta.messageId());
                }
            } finally {
                ofKey.decrementAndGet();
            }
        }), relaxedSession().messageConcurrency(4).batchLimit(10).build(), sessions);

        await().atMost(PATIENCE).until(() -> ids.stream().allMatch(id -> ledger.count(id, Result.SUCCESS) == 1)
                && scenario.tables().exceptions().isEmpty());

        assertThat(retriedTogether).as("retried runs that found three retried runs under way at once")
                .containsExactlyInAnyOrderElementsOf(ids);
        assertThat(sameKeyOverlaps).as("runs of one key that overlapped").hasValue(0);
        assertThat(ids).allSatisfy(id -> assertThat(ledger.runsOf(id)).extracting(DeliveryLedger.Run::result)
                .containsExactly(Result.FAILURE, Result.SUCCESS));
    }

    @Test
    void delaysNeverCountAsFailures() {
        DeliveryScenario scenario = scenario("delays", DeliveryLogMode.FAILURES, quickRetries(1, Duration.ofSeconds(5)), 3);
        long delayed = scenario.ids().get(0);
        AtomicReference<ExceptionRow> duringLastRun = new AtomicReference<>();
        start(scenario, ledger.handler((message, meta) -> {
            if (meta.messageId() != delayed) {
                return;
            }
            if (ledger.runCount(delayed) <= 5) {
                throw Outcome.delay(Duration.ofMillis(20));
            }
            duringLastRun.set(scenario.tables().exception(delayed).orElseThrow());
        }));

        await().atMost(PATIENCE).until(() -> ledger.count(delayed, Result.SUCCESS) == 1
                && scenario.tables().exception(delayed).isEmpty());

        assertThat(ledger.runsOf(delayed)).extracting(DeliveryLedger.Run::result).containsExactly(
                Result.DELAY, Result.DELAY, Result.DELAY, Result.DELAY, Result.DELAY, Result.SUCCESS);
        assertThat(ledger.runsOf(delayed)).extracting(DeliveryLedger.Run::attempt).containsExactly(1, 2, 3, 4, 5, 6);
        ExceptionRow row = duringLastRun.get();
        assertThat(row.status()).isEqualTo("inflight");
        assertThat(row.delays()).as("delays column").isEqualTo(5);
        assertThat(row.attempts() - row.delays()).as("failures counted against MaxRetries 1").isZero();
        List<LogRow> log = scenario.tables().log(delayed);
        assertThat(log).extracting(LogRow::status).containsOnly("delayed");
        assertThat(log).extracting(LogRow::attempt).containsExactly(0, 1, 2, 3, 4);
        assertThat(log).allSatisfy(entry -> assertThat(entry.error()).contains("SQL0054"));
        assertThat(scenario.tables().exceptions()).isEmpty();
        assertSiblingsSucceededOnce(scenario, delayed);
    }

    @Test
    void theDelayPastMaxDelaysDeadLetters() {
        ConsumerConfig declaration = ConsumerConfig.builder()
                .exceptionInitialBackoff(Duration.ofMillis(10))
                .message(MessageOptions.builder().timeout(Duration.ofSeconds(5)).retry(RetryPolicy.builder()
                        .maxRetries(3).maxDelays(2).baseDelay(Duration.ofMillis(10)).maxDelay(Duration.ofMillis(50))
                        .build()).build())
                .build();
        DeliveryScenario scenario = scenario("maxdelays", DeliveryLogMode.FAILURES, declaration, 2);
        long delayed = scenario.ids().get(1);
        start(scenario, ledger.handler((message, meta) -> {
            if (meta.messageId() == delayed) {
                throw Outcome.delay(Duration.ofMillis(20));
            }
        }));

        ExceptionRow dead = awaitStatus(scenario.tables(), delayed, "dead");

        assertThat(ledger.runsOf(delayed)).extracting(DeliveryLedger.Run::result)
                .containsExactly(Result.DELAY, Result.DELAY, Result.DELAY);
        assertThat(dead.delays()).isEqualTo(2);
        assertThat(dead.attempts()).isEqualTo(2);
        assertThat(dead.lastError()).contains("SQL0054").contains("maxDelays 2");
        assertThat(scenario.tables().log(delayed)).extracting(LogRow::attempt, LogRow::status).containsExactly(
                tuple(0, "delayed"), tuple(1, "delayed"),
                tuple(2, "failure"));
        await("SQL0030, logged once the dead row is written").atMost(PATIENCE).untilAsserted(() ->
                assertThat(logger.withCode("SQL0030")).anySatisfy(line ->
                        assertThat(line).contains("message " + delayed + " ")));
        assertSiblingsSucceededOnce(scenario, delayed);
    }

    @Test
    void aTerminalOutcomeDeadLettersAfterOneRun() {
        DeliveryScenario scenario = scenario("terminal", DeliveryLogMode.FAILURES, quickRetries(3, Duration.ofSeconds(5)), 5);
        long poison = scenario.ids().get(2);
        ConsumerSession session = start(scenario, ledger.handler((message, meta) -> {
            if (meta.messageId() == poison) {
                throw Outcome.terminal("terminal test " + meta.messageId());
            }
        }));

        ExceptionRow dead = awaitStatus(scenario.tables(), poison, "dead");
        await().atMost(PATIENCE).until(() -> ledger.succeeded().size() == 4);
        long last = scenario.ids().get(4);
        await("a dead row does not hold the committed cursor back").atMost(PATIENCE)
                .until(() -> scenario.tables().cursor().committed() >= last);
        session.close();

        assertThat(ledger.runsOf(poison)).extracting(DeliveryLedger.Run::result).containsExactly(Result.TERMINAL);
        assertThat(dead.attempts()).isZero();
        assertThat(dead.lastError()).contains("delivery cannot succeed: terminal test " + poison);
        assertThat(scenario.tables().log(poison)).extracting(LogRow::attempt, LogRow::status)
                .containsExactly(tuple(0, "failure"));
        assertThat(logger.withCode("SQL0028")).anySatisfy(line -> assertThat(line).contains("dead_count=1"));
        assertThat(session.counters().dead()).isEqualTo(1);
        assertSiblingsSucceededOnce(scenario, poison);
    }

    @Test
    void aPayloadThatDoesNotDecodeIsDeadAtOnceAndItsSiblingsAreFine() {
        DeliveryScenario scenario = scenario("undecodable", DeliveryLogMode.FAILURES, quickRetries(3, Duration.ofSeconds(5)), 3);
        long broken = scenario.tables().insertRaw(1, "{\"n\": \"not-a-number\"}");
        List<Long> siblings = new ArrayList<>(scenario.ids());
        produceNumbered(scenario.stream(), 3).forEach(result -> siblings.add(result.id()));
        start(scenario, ledger.succeeding());

        ExceptionRow dead = awaitStatus(scenario.tables(), broken, "dead");
        await().atMost(PATIENCE).until(() -> ledger.succeeded().size() == 6);

        assertThat(ledger.runCount(broken)).as("the handler never sees an undecodable payload").isZero();
        assertThat(dead.attempts()).isZero();
        assertThat(dead.lastError()).contains("SQL0112");
        assertThat(logger.withCode("SQL0028")).anySatisfy(line -> assertThat(line).contains("dead_count=1"));
        ledger.assertEachSucceededOnce(siblings);
        assertThat(scenario.tables().exceptions()).extracting(ExceptionRow::messageId).containsExactly(broken);
    }

    @Test
    void deliveryLogModeOffWritesNoAuditRows() {
        DeliveryScenario scenario = scenario("log.off", DeliveryLogMode.OFF, quickRetries(2, Duration.ofSeconds(5)), 3);
        long failing = scenario.ids().get(1);
        start(scenario, ledger.handler((message, meta) -> {
            if (meta.messageId() == failing) {
                throw new IllegalStateException("always fails");
            }
        }));

        ExceptionRow dead = awaitStatus(scenario.tables(), failing, "dead");

        assertThat(ledger.runCount(failing)).isEqualTo(3);
        assertThat(dead.attempts()).isEqualTo(2);
        assertThat(scenario.tables().log()).as("delivery log in mode off").isEmpty();
        assertSiblingsSucceededOnce(scenario, failing);
    }

    @Test
    void deliveryLogModeAllRecordsSuccessesToo() {
        DeliveryScenario scenario = scenario("log.all", DeliveryLogMode.ALL, quickRetries(3, Duration.ofSeconds(5)), 3);
        long flaky = scenario.ids().get(1);
        start(scenario, ledger.handler((message, meta) -> {
            if (meta.messageId() == flaky && meta.attempt() == 1) {
                throw new IllegalStateException("first run fails");
            }
        }));

        await().atMost(PATIENCE).until(() -> ledger.succeeded().size() == 3 && scenario.tables().exceptions().isEmpty());

        for (long id : scenario.ids()) {
            List<LogRow> log = scenario.tables().log(id);
            if (id == flaky) {
                assertThat(log).extracting(LogRow::attempt, LogRow::status).containsExactly(
                        tuple(0, "failure"),
                        tuple(1, "success"));
            } else {
                assertThat(log).extracting(LogRow::attempt, LogRow::status)
                        .containsExactly(tuple(0, "success"));
            }
        }
        assertThat(ledger.runCount(flaky)).isEqualTo(2);
    }

    @Test
    void messageMetaDescribesTheDeliveryAndItsResolvedOptions() {
        ConsumerConfig declaration = ConsumerConfig.builder()
                .exceptionInitialBackoff(Duration.ofMillis(10))
                .message(MessageOptions.builder().timeout(Duration.ofSeconds(7)).retry(RetryPolicy.builder()
                        .maxRetries(4).baseDelay(Duration.ofMillis(10)).maxDelay(Duration.ofMillis(50)).build()).build())
                .build();
        DeliveryScenario scenario = scenario("meta", DeliveryLogMode.FAILURES, declaration, 2);
        long flaky = scenario.ids().get(0);
        start(scenario, ledger.handler((message, meta) -> {
            if (meta.messageId() == flaky && ledger.runCount(flaky) == 1) {
                throw new IllegalStateException("fails once");
            }
        }));

        await().atMost(PATIENCE).until(() -> ledger.succeeded().size() == 2);

        List<DeliveryLedger.Run> runs = ledger.runsOf(flaky);
        assertThat(runs).hasSize(2);
        for (DeliveryLedger.Run run : runs) {
            MessageMeta meta = run.meta();
            assertThat(meta.stream()).isEqualTo("meta");
            assertThat(meta.group()).isEqualTo("meta.g");
            assertThat(meta.messageId()).isEqualTo(flaky);
            assertThat(meta.routingKey()).isNull();
            assertThat(meta.messageKey()).isNull();
            assertThat(meta.options().timeout()).as("timeout from the group declaration").isEqualTo(Duration.ofSeconds(7));
            assertThat(meta.options().retry().maxRetries()).isEqualTo(4);
            assertThat(meta.options().concurrency()).isEqualTo(Concurrency.PARALLEL);
        }
        assertThat(runs).extracting(run -> run.meta().attempt()).containsExactly(1, 2);
        assertThat(runs.get(0).payload()).isEqualTo(1);
    }

    /**
     * The message's own facts reach its handler on the range path and on the exception path alike: when it was
     * written, its compaction rank (null without compaction) and how often it was delayed so far. Each message asks
     * for a delay on its first two runs, so its second and third run on the exception path.
     */
    @Test
    void messageMetaCarriesCreatedAtCompactionRankAndDelaysOnBothPaths() throws Exception {
        DeliveryScenario scenario = scenario("facts", DeliveryLogMode.FAILURES, quickRetries(3, Duration.ofSeconds(5)),
                0);
        long compacted;
        long plain;
        try (Producer<Numbered> producer = scenario.stream().producer().register()) {
            compacted = producer.produce(new Numbered(1), ProduceOptions.builder().messageKey("k")
                    .compaction(CompactionOptions.withRank(7)).build()).id();
            plain = producer.produce(new Numbered(2), ProduceOptions.none()).id();
        }
        start(scenario, ledger.handler((message, meta) -> {
            if (ledger.runCount(meta.messageId()) <= 2) {
                throw Outcome.delay(Duration.ofMillis(20));
            }
        }));

        await().atMost(PATIENCE).until(() -> ledger.succeeded().size() == 2);

        Sql sql = new Sql(database);
        for (long id : List.of(compacted, plain)) {
            Instant createdAt = ((Timestamp) sql.value("SELECT created_at FROM {s}.message_log_"
                    + scenario.stream().get().orElseThrow().id() + " WHERE id = ?", id)).toInstant();
            assertThat(ledger.runsOf(id)).extracting(DeliveryLedger.Run::meta)
                    .extracting(MessageMeta::attempt, MessageMeta::delays, MessageMeta::createdAt,
                            MessageMeta::compactionRank)
                    .as("runs of message %d", id).containsExactly(
                            tuple(1, 0, createdAt, id == compacted ? 7L : null),
                            tuple(2, 1, createdAt, id == compacted ? 7L : null),
                            tuple(3, 2, createdAt, id == compacted ? 7L : null));
        }
    }

    @Test
    void rowsOfAnotherSchemaVersionArePassedOver() {
        DeliveryScenario scenario = scenario("versions", DeliveryLogMode.FAILURES, quickRetries(3, Duration.ofSeconds(5)), 0);
        StreamHandle<NumberedV2> second = client.stream("versions", NumberedV2.class);
        List<Long> v1 = new ArrayList<>();
        List<Long> v2 = new ArrayList<>();
        try (Producer<NumberedV2> producer = second.producer().register()) {
            for (int round = 0; round < 3; round++) {
                produceNumbered(scenario.stream(), 3).forEach(result -> v1.add(result.id()));
                producer.produceBatch(List.of(ProduceItem.of(new NumberedV2("a" + round)),
                        ProduceItem.of(new NumberedV2("b" + round)))).forEach(result -> v2.add(result.id()));
            }
        }
        Set<Long> seenByV2 = ConcurrentHashMap.newKeySet();
        ConsumerInstance<NumberedV2> v2Group = second.consumer("versions.g2").register(quickRetries(3, Duration.ofSeconds(5)));
        sessions.add(v2Group.start(message -> seenByV2.add(MessageMeta.current().messageId()), relaxedSession().build()));
        start(scenario, ledger.succeeding());
        long head = Collections.max(v2);
        assertThat(scenario.tables().head()).isEqualTo(head);

        await().atMost(PATIENCE).until(() -> scenario.tables().cursor().committed() >= head);

        ledger.assertEachSucceededOnce(v1);
        assertThat(scenario.tables().exceptions()).isEmpty();
        assertThat(scenario.tables().cursor().claimed()).isEqualTo(head);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(seenByV2).containsExactlyInAnyOrderElementsOf(v2));
    }

    @Test
    void aHandlerPastItsTimeoutIsAbandonedOrInterruptedAndTheAttemptFails() {
        ConsumerConfig declaration = ConsumerConfig.builder()
                .exceptionInitialBackoff(Duration.ofMinutes(1))
                .message(MessageOptions.builder().timeout(Duration.ofMillis(300)).build())
                .build();
        DeliveryScenario scenario = scenario("timeouts", DeliveryLogMode.FAILURES, declaration, 2);
        long stubborn = scenario.ids().get(0);
        long polite = scenario.ids().get(1);
        ConsumerSession session = start(scenario.instance(), ledger.handler((message, meta) -> {
            if (meta.messageId() == stubborn) {
                sleepIgnoringInterrupts(Duration.ofSeconds(1));
            } else {
                Thread.sleep(Duration.ofSeconds(5).toMillis());
            }
        }), fastSession().messageConcurrency(2).timeoutGrace(Duration.ofMillis(300)).queueMargin(Duration.ofSeconds(1))
                .build());

        ExceptionRow abandoned = awaitStatus(scenario.tables(), stubborn, "ready");
        ExceptionRow interrupted = awaitStatus(scenario.tables(), polite, "ready");

        assertThat(session.counters().abandoned()).isGreaterThanOrEqualTo(1);
        assertThat(abandoned.attempts()).isZero();
        assertThat(abandoned.lastError()).contains("hard timeout");
        assertThat(scenario.tables().log(stubborn)).extracting(LogRow::attempt, LogRow::status)
                .containsExactly(tuple(0, "failure"));
        assertThat(interrupted.lastError()).contains("InterruptedException").doesNotContain("hard timeout");
        assertThat(scenario.tables().log(polite)).extracting(LogRow::attempt, LogRow::status)
                .containsExactly(tuple(0, "failure"));
        assertThat(ledger.runsOf(polite)).extracting(DeliveryLedger.Run::result).containsExactly(Result.FAILURE);
        await().atMost(PATIENCE).until(() -> ledger.count(stubborn, Result.SUCCESS) == 1);
        assertThat(scenario.tables().exception(stubborn).orElseThrow().status())
                .as("the abandoned handler's late return changes nothing").isEqualTo("ready");
    }

    // ---------------------------------------------------------------------------------------------------

    /** Three retries, the first 50 ms after the failure and the others 50–100 ms apart, each run within {@code timeout}. */
    private static ConsumerConfig.Builder briefRetries(Duration timeout) {
        return ConsumerConfig.builder()
                .exceptionInitialBackoff(Duration.ofMillis(50))
                .message(MessageOptions.builder().timeout(timeout).retry(RetryPolicy.builder()
                        .maxRetries(3).baseDelay(Duration.ofMillis(50)).maxDelay(Duration.ofMillis(100)).build())
                        .build());
    }

    private DeliveryScenario scenario(String name, DeliveryLogMode mode, ConsumerConfig declaration, int count) {
        return DeliveryScenario.create(client, database, name, mode, declaration, count);
    }

    private ConsumerSession start(DeliveryScenario scenario, MessageHandler<Numbered> handler) {
        return scenario.start(handler, relaxedSession().batchLimit(10).build(), sessions);
    }

    /**
     * Fast polls, but a queue margin wide enough that the start guard (SQL0105) never strands a range on a
     * loaded machine: these tests crash nothing, so a stale range's reclaim would only add duplicates.
     */
    private static ConsumeOptions.Builder relaxedSession() {
        return fastSession().queueMargin(Duration.ofSeconds(5));
    }

    private ConsumerSession start(ConsumerInstance<Numbered> instance, MessageHandler<Numbered> handler,
                                  ConsumeOptions options) {
        return DeliveryScenario.startSession(instance, handler, options, sessions);
    }

    private static ExceptionRow awaitStatus(DeliveryTables tables, long messageId, String status) {
        return await().atMost(PATIENCE).pollInterval(20, TimeUnit.MILLISECONDS)
                .until(() -> tables.exception(messageId).orElse(null),
                        row -> row != null && row.status().equals(status));
    }

    /** Every message of the scenario except {@code except} ran exactly once, succeeded, and left no row. */
    private void assertSiblingsSucceededOnce(DeliveryScenario scenario, long except) {
        List<Long> siblings = scenario.ids().stream().filter(id -> id != except).toList();
        await().atMost(PATIENCE).until(() -> ledger.succeeded().containsAll(siblings));
        for (long id : siblings) {
            assertThat(ledger.runsOf(id)).as("runs of sibling %d", id).extracting(DeliveryLedger.Run::result)
                    .containsExactly(Result.SUCCESS);
            assertThat(scenario.tables().exception(id)).as("exception row of sibling %d", id).isEmpty();
        }
    }

    private static void sleepIgnoringInterrupts(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        boolean interrupted = false;
        for (long left = duration.toNanos(); left > 0; left = until - System.nanoTime()) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException ignored) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
