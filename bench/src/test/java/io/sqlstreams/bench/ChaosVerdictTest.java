package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Concurrency;
import io.sqlstreams.testing.TestPostgres;

/**
 * The chaos lab's checks against ledgers written by hand on a real PostgreSQL: each broken promise is planted once
 * and must be counted, and what is not broken (a killed run, a finish that could not be written, a re-run after a
 * kill) must not be.
 */
class ChaosVerdictTest {
    private static final long GROUP = 7;
    private static final ChaosPlan PLAN = new ChaosPlan(20_261_201L);

    private static BenchServer server;
    private ThrowawaySchema schema;
    private ChaosVerdict verdict;

    @BeforeAll
    static void startServer() throws Exception {
        server = BenchServer.start(TestPostgres.configuredUrl());
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @BeforeEach
    void createTables() throws SQLException {
        schema = ThrowawaySchema.create(server.dataSource());
        new RunLedger(server.dataSource(), schema.name()).create();
        execute("CREATE TABLE " + schema.name() + ".log (id bigint PRIMARY KEY, payload jsonb NOT NULL)");
        execute("CREATE TABLE " + schema.name() + ".exceptions (consumer_group_id bigint, message_id bigint,"
                + " status text, attempts int, last_error text)");
        verdict = new ChaosVerdict(server.dataSource(), schema.name(), schema.name() + ".exceptions", GROUP,
                HandlerMode.PLAIN);
    }

    @AfterEach
    void dropTables() throws SQLException {
        schema.close();
    }

    @Test
    void aCleanLedgerBreaksNothingAndCountsRunsAfterTheFirstSuccessAsDuplicates() throws Exception {
        long unkeyed = seq(m -> m.policy() == Concurrency.PARALLEL && succeeds(m));
        long poison = seq(m -> m.behaviour() == ChaosPlan.Behaviour.POISON);
        store(unkeyed, poison);
        finished(unkeyed, "c1", 0, 10, "success");
        finished(unkeyed, "c2", 50, 60, "success");
        finished(poison, "c1", 0, 5, "failure");
        dead(poison);

        ChaosVerdict.Counts counts = judge(unkeyed, poison);

        assertThat(counts.lost()).isZero();
        assertThat(counts.unexpected()).isZero();
        assertThat(counts.overlaps()).isZero();
        assertThat(counts.orderViolations()).isZero();
        assertThat(counts.duplicates()).isEqualTo(1);
        assertThat(counts.settled()).isEqualTo(2);
        assertThat(counts.evidence()).isEmpty();
    }

    @Test
    void aMessageWithoutItsConfiguredOutcomeIsLost() throws Exception {
        long onlyFailed = seq(m -> m.policy() == Concurrency.PARALLEL && succeeds(m));
        long poisonAlive = seq(m -> m.behaviour() == ChaosPlan.Behaviour.POISON);
        long neverStored = seq(m -> m.seq() > Math.max(onlyFailed, poisonAlive));
        store(onlyFailed, poisonAlive);
        finished(onlyFailed, "c1", 0, 10, "failure");
        finished(poisonAlive, "c1", 0, 10, "failure");

        ChaosVerdict.Counts counts = judge(onlyFailed, poisonAlive, neverStored);

        assertThat(counts.unsettled()).isEqualTo(2);
        assertThat(counts.notStored()).isEqualTo(1);
        assertThat(counts.lost()).isEqualTo(3);
        assertThat(counts.evidence()).anyMatch(line -> line.startsWith("lost: message " + id(onlyFailed)))
                .anyMatch(line -> line.contains("1 acknowledged but not in the log"));
    }

    @Test
    void runsOfAMessageNotProducedAndMessagesNeverAcknowledgedAreUnexpected() throws Exception {
        long produced = seq(m -> succeeds(m));
        long stray = seq(m -> m.seq() > produced);
        store(produced, stray);
        finished(produced, "c1", 0, 10, "success");
        finished(stray, "c1", 0, 10, "success");
        insertRun(999_999, produced, "c1", at(20), at(30), "success");

        ChaosVerdict.Counts counts = judge(produced);

        assertThat(counts.unexpected()).as("stored but never acknowledged, and a run of an id not in the log")
                .isEqualTo(2);
    }

    @Test
    void twoRunsOfAnExclusiveKeyAtOnceOverlapButAKilledRunEndsAtTheKill() throws Exception {
        long first = seq(m -> m.policy() == Concurrency.EXCLUSIVE && succeeds(m));
        String key = PLAN.message(first).key();
        long second = seq(m -> m.seq() > first && key.equals(m.key()) && succeeds(m));
        long third = seq(m -> m.seq() > second && key.equals(m.key()) && succeeds(m));
        store(first, second, third);
        finished(first, "c1", 0, 100, "success");
        finished(second, "c2", 50, 150, "success");
        unfinished(third, "c3", 200);
        kill("c3", 250);
        finished(third, "c4", 260, 270, "success");

        ChaosVerdict.Counts counts = judge(first, second, third);

        assertThat(counts.overlaps()).isEqualTo(1);
        assertThat(counts.evidence()).singleElement().asString().startsWith("overlap: key " + key)
                .contains("message " + id(first) + " on c1", "message " + id(second) + " on c2");
        assertThat(counts.unfinishedLive()).isZero();
    }

    @Test
    void aRunOfAKilledProcessOverlapsWhatBeganBeforeTheKill() throws Exception {
        long first = seq(m -> m.policy() == Concurrency.ORDERED && succeeds(m));
        String key = PLAN.message(first).key();
        long second = seq(m -> m.seq() > first && key.equals(m.key()) && succeeds(m));
        store(first, second);
        unfinished(first, "c1", 0);
        finished(second, "c2", 100, 110, "success");
        kill("c1", 200);
        finished(first, "c3", 300, 310, "success");

        assertThat(judge(first, second).overlaps()).isEqualTo(1);
    }

    @Test
    void anUnfinishedRunOfALiveProcessIsCountedAndNeverInventsAnOverlap() throws Exception {
        long first = seq(m -> m.policy() == Concurrency.EXCLUSIVE && succeeds(m));
        String key = PLAN.message(first).key();
        long second = seq(m -> m.seq() > first && key.equals(m.key()) && succeeds(m));
        store(first, second);
        unfinished(first, "c1", 0);
        finished(first, "c1", 20, 30, "success");
        finished(second, "c2", 40, 50, "success");

        ChaosVerdict.Counts counts = judge(first, second);

        assertThat(counts.overlaps()).isZero();
        assertThat(counts.unfinishedLive()).isEqualTo(1);
        assertThat(counts.lost()).isZero();
    }

    @Test
    void anOrderedMessageWhoseFirstSuccessCameAfterALaterOnesIsAViolation() throws Exception {
        long first = seq(m -> m.policy() == Concurrency.ORDERED && succeeds(m));
        String key = PLAN.message(first).key();
        long second = seq(m -> m.seq() > first && key.equals(m.key()) && succeeds(m));
        long third = seq(m -> m.seq() > second && key.equals(m.key()) && succeeds(m));
        store(first, second, third);
        finished(first, "c1", 0, 10, "failure");
        finished(second, "c1", 20, 30, "success");
        finished(first, "c2", 40, 50, "success");
        finished(third, "c2", 60, 70, "success");

        ChaosVerdict.Counts counts = judge(first, second, third);

        assertThat(counts.orderViolations()).isEqualTo(1);
        assertThat(counts.overlaps()).isZero();
        assertThat(counts.evidence()).singleElement().asString()
                .startsWith("ordered violation: key " + key + ": message " + id(first));
    }

    @Test
    void exclusiveMessagesPromiseNoOrder() throws Exception {
        long first = seq(m -> m.policy() == Concurrency.EXCLUSIVE && succeeds(m));
        String key = PLAN.message(first).key();
        long second = seq(m -> m.seq() > first && key.equals(m.key()) && succeeds(m));
        store(first, second);
        finished(second, "c1", 0, 10, "success");
        finished(first, "c1", 20, 30, "success");

        assertThat(judge(first, second).orderViolations()).isZero();
    }

    @Test
    void withATransactionalHandlerAMessageIsSettledOnlyOnceItsEffectCommitted() throws Exception {
        long poison = seq(m -> m.behaviour() == ChaosPlan.Behaviour.POISON);
        long committed = seq(m -> succeeds(m));
        long rolledBack = seq(m -> m.seq() > committed && succeeds(m));
        store(poison, committed, rolledBack);
        dead(poison);
        for (long success : new long[] {committed, rolledBack}) {
            finished(success, "c1", 0, 10, "success");
        }
        effect(ChaosGroup.GROUP, id(committed));
        ChaosVerdict transactional = transactional();

        assertThat(transactional.settled()).as("the success whose transaction rolled back is not settled").isEqualTo(2);
        assertThat(verdict.settled()).as("the plain handler's verdict reads the ledger alone").isEqualTo(3);
    }

    @Test
    void everyProducedMessageButAPoisonOneHasExactlyOneEffectAndNothingElseHasOne() throws Exception {
        long first = seq(m -> m.policy() == Concurrency.PARALLEL && succeeds(m));
        long failsOnce = seq(m -> m.behaviour() == ChaosPlan.Behaviour.FAILS_ONCE);
        long poison = seq(m -> m.behaviour() == ChaosPlan.Behaviour.POISON);
        store(first, failsOnce, poison);
        effect(ChaosGroup.GROUP, id(first));
        effect(ChaosGroup.GROUP, id(failsOnce));
        ChaosVerdict transactional = transactional();

        EffectCounts counts = transactional.effects(0);

        assertThat(counts).isEqualTo(new EffectCounts(2, 0, 0, 0, List.of()));
        assertThat(counts.invariants()).allMatch(Invariant::passed);
    }

    @Test
    void aMissingEffectAndEveryRowBeyondOnePerMessageAreCountedWithExamples() throws Exception {
        long missing = seq(m -> m.policy() == Concurrency.PARALLEL && succeeds(m));
        long kept = seq(m -> m.seq() > missing && succeeds(m));
        long poison = seq(m -> m.behaviour() == ChaosPlan.Behaviour.POISON);
        store(missing, kept, poison);
        finished(missing, "c1", 0, 10, "success");
        effect(ChaosGroup.GROUP, id(kept));
        effect(ChaosGroup.GROUP, id(poison));
        effect(ChaosGroup.GROUP, 999_999);
        effect("another-group", id(kept));
        ChaosVerdict transactional = transactional();

        EffectCounts counts = transactional.effects(0);

        assertThat(counts.rows()).isEqualTo(4);
        assertThat(counts.missing()).isEqualTo(1);
        assertThat(counts.extra()).as("the poison message's row, a message not produced, another group's").isEqualTo(3);
        assertThat(counts.evidence()).contains("missing effect: message " + id(missing) + " (seq " + missing
                        + ", SUCCEEDS): runs c1#1 success", "extra effect: group chaos, message " + id(poison)
                        + " (POISON)", "extra effect: group chaos, message 999999 (no such message of the lab's group)",
                "extra effect: group another-group, message " + id(kept) + " (no such message of the lab's group)");
        assertThat(counts.invariants()).extracting(Invariant::name, Invariant::count, Invariant::passed)
                .containsExactly(tuple("missing effects", 1L, false), tuple("extra effects", 3L, false),
                        tuple("unique violations", 0L, true));
    }

    @Test
    void aUniqueViolationTheConsumersReportedFailsTheRunEvenWithEveryEffectInPlace() throws Exception {
        long only = seq(m -> succeeds(m));
        store(only);
        effect(ChaosGroup.GROUP, id(only));
        ChaosVerdict transactional = transactional();

        EffectCounts counts = transactional.effects(2);

        assertThat(counts.missing() + counts.extra()).isZero();
        assertThat(counts.invariants()).filteredOn(invariant -> !invariant.passed())
                .singleElement().extracting(Invariant::name, Invariant::count)
                .containsExactly("unique violations", 2L);
    }

    @Test
    void theEffectsTableRefusesASecondRowOfAMessage() throws Exception {
        effect(ChaosGroup.GROUP, 5);

        assertThatThrownBy(() -> effect(ChaosGroup.GROUP, 5)).isInstanceOf(SQLException.class)
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505");
    }

    // ---------------------------------------------------------------------------------------------------

    /** A verdict for a transactional handler, the messages stored so far recorded. */
    private ChaosVerdict transactional() throws SQLException {
        ChaosVerdict transactional = new ChaosVerdict(server.dataSource(), schema.name(), schema.name()
                + ".exceptions", GROUP, HandlerMode.TRANSACTIONAL);
        transactional.recordMessages(schema.name() + ".log", PLAN);
        return transactional;
    }

    private void effect(String group, long messageId) throws SQLException {
        try (Connection connection = server.dataSource().getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + schema.name()
                     + ".chaos_effects (consumer_group, message_id) VALUES (?, ?)")) {
            insert.setString(1, group);
            insert.setLong(2, messageId);
            insert.executeUpdate();
        }
    }

    private static boolean succeeds(ChaosPlan.Message message) {
        return message.behaviour() == ChaosPlan.Behaviour.SUCCEEDS;
    }

    /** The first sequence number whose planned message matches. */
    private static long seq(Predicate<ChaosPlan.Message> wanted) {
        return LongStream.range(0, 100_000).mapToObj(PLAN::message).filter(wanted).findFirst().orElseThrow().seq();
    }

    /** The message id a sequence number is stored under here: far from it, so the two are never confused. */
    private static long id(long seq) {
        return 1_000 + seq;
    }

    private ChaosVerdict.Counts judge(long... acknowledged) throws SQLException {
        verdict.recordMessages(schema.name() + ".log", PLAN);
        return verdict.judge(LongStream.of(acknowledged).sorted().toArray());
    }

    private void store(long... seqs) throws SQLException {
        for (long seq : seqs) {
            execute("INSERT INTO " + schema.name() + ".log VALUES (" + id(seq) + ", '{\"id\": " + seq + "}')");
        }
    }

    private void dead(long seq) throws SQLException {
        execute("INSERT INTO " + schema.name() + ".exceptions VALUES (" + GROUP + ", " + id(seq)
                + ", 'dead', 5, 'planned')");
    }

    private void kill(String process, long atMillis) throws SQLException {
        execute("INSERT INTO " + schema.name() + ".chaos_fault (kind, process, at) VALUES ('kill', '" + process
                + "', " + at(atMillis) + ")");
    }

    private void finished(long seq, String process, long startMillis, long finishMillis, String outcome)
            throws SQLException {
        insertRun(id(seq), seq, process, at(startMillis), at(finishMillis), outcome);
    }

    /** A run whose finish was never written. */
    private void unfinished(long seq, String process, long startMillis) throws SQLException {
        insertRun(id(seq), seq, process, at(startMillis), "NULL", null);
    }

    private void insertRun(long messageId, long seq, String process, String startedAt, String finishedAt,
                           String outcome) throws SQLException {
        ChaosPlan.Message message = PLAN.message(seq);
        try (Connection connection = server.dataSource().getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + schema.name() + ".chaos_run"
                     + " (run_id, message_id, seq, message_key, policy, process, attempt, started_at, finished_at,"
                     + " outcome) VALUES (?, ?, ?, ?, ?, ?, 1, " + startedAt + ", " + finishedAt + ", ?)")) {
            insert.setObject(1, UUID.randomUUID());
            insert.setLong(2, messageId);
            insert.setLong(3, seq);
            insert.setString(4, message.key());
            insert.setString(5, message.policy().wireName());
            insert.setString(6, process);
            insert.setString(7, outcome);
            insert.executeUpdate();
        }
    }

    private static String at(long millis) {
        return "timestamptz '2026-01-01 00:00:00+00' + interval '" + millis + " milliseconds'";
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = server.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
