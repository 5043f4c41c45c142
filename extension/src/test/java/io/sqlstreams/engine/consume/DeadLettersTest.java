package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.BlockedKey;
import io.sqlstreams.Code;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.DeadLetterPage;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.Outcome;
import io.sqlstreams.PageRequest;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;

/**
 * A group's dead letters as an operator sees and changes them: listing, counting and grouping by filter, discard
 * and redrive with their audit trail, bad requests, and blocked ordered keys. Dead letters are made by real
 * sessions whose handler fails for good: payloads n with n % 3 == 0 fail "Card declined", n % 3 == 1 fail with
 * SQL-significant text, the rest succeed.
 */
@PostgresTest
class DeadLettersTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The handler timeout: a range whose first handler starts slowly waits at most about this for a reclaim. */
    private static final Duration SHORT = Duration.ofSeconds(3);
    private static final String DECLINED = "Card declined by issuer";
    private static final String SIGNIFICANT = "address '50% off'; DROP TABLE x; -- _";

    private final Ledger ledger = new Ledger();
    private final AtomicBoolean failing = new AtomicBoolean(true);
    private Rig rig;
    private Sql sql;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "dead");
        sql = new Sql(database);
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void filtersSelectTheDeadLettersOfOneGroupNewestFirst() throws Exception {
        List<Long> ids = produceAndKill("triage", 30);
        rig.start(rig.register("healthy", ConsumerConfig.defaults()), ledger.handler("healthy", run -> { }),
                fastSession().build());
        var dead = rig.stream.consumer("triage").deadLetters();

        assertThat(dead.count(DeadLetterFilter.all())).isEqualTo(20);
        assertThat(dead.count(DeadLetterFilter.all().errorContaining("CARD DECLINED"))).as("ignoring case")
                .isEqualTo(10);
        assertThat(dead.count(DeadLetterFilter.all().errorContaining("%"))).as("% is text, not a wildcard")
                .isEqualTo(10);
        assertThat(dead.count(DeadLetterFilter.all().errorContaining("'; DROP TABLE x; --"))).isEqualTo(10);
        assertThat(dead.count(DeadLetterFilter.all().errorContaining("declined_"))).as("_ is text").isZero();
        assertThat(dead.count(DeadLetterFilter.all().key("k0"))).as("even payloads").isEqualTo(10);
        assertThat(dead.count(DeadLetterFilter.all().idRange(ids.get(3), ids.get(8)))).as("payloads 4..9")
                .isEqualTo(4);
        assertThat(dead.count(DeadLetterFilter.all().idRange(null, ids.get(2)))).as("payloads 1..3").isEqualTo(2);
        assertThat(dead.count(DeadLetterFilter.all().ids(Set.of(ids.get(0), ids.get(1), ids.get(2)))))
                .as("1 and 3 of the selection are dead, 2 succeeded").isEqualTo(2);
        assertThat(dead.count(DeadLetterFilter.all().deadSince(Instant.now().plusSeconds(3600)))).isZero();
        assertThat(dead.count(DeadLetterFilter.all().deadSince(Instant.now().minusSeconds(3600)))).isEqualTo(20);
        assertThat(rig.stream.consumer("healthy").deadLetters().count(DeadLetterFilter.all()))
                .as("dead letters are per group").isZero();

        List<DeadLetter> listed = new ArrayList<>();
        DeadLetterPage page = dead.list(DeadLetterFilter.all(), PageRequest.first(7));
        listed.addAll(page.letters());
        while (page.nextBeforeId() != null) {
            page = dead.list(DeadLetterFilter.all(), PageRequest.first(7).after(page.nextBeforeId()));
            listed.addAll(page.letters());
        }
        List<Long> expected = LongStream.rangeClosed(1, 30).filter(n -> n % 3 != 2).mapToObj(n -> ids.get((int) n - 1))
                .sorted((a, b) -> Long.compare(b, a)).toList();
        assertThat(listed).extracting(DeadLetter::messageId).as("every dead letter once, newest first")
                .containsExactlyElementsOf(expected);
        DeadLetterPage exact = dead.list(DeadLetterFilter.all(), PageRequest.first(20));
        assertThat(exact.letters()).hasSize(20);
        assertThat(exact.nextBeforeId()).as("a full page that is the last one says so").isNull();
        DeadLetter newest = listed.get(0);
        assertThat(newest.payloadJson()).isEqualToIgnoringWhitespace("{\"n\":30}");
        assertThat(newest.runs()).isEqualTo(1);
        assertThat(newest.messageKey()).isEqualTo("k0");
        assertThat(newest.lastError()).contains(DECLINED);
        assertThat(newest.deadSince()).isAfterOrEqualTo(newest.createdAt());

        assertThat(dead.errors(DeadLetterFilter.all(), 10)).as("grouped by error, each sampled by its newest")
                .extracting(DeadLetterErrors::count, DeadLetterErrors::sampleMessageId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(10L, ids.get(29)),
                        org.assertj.core.groups.Tuple.tuple(10L, ids.get(27)));
    }

    @Test
    void discardResolvesWithoutRunningAndRedriveRunsOnlyWhatItSelectsOnce() throws Exception {
        List<Long> ids = produceAndKill("charge", 30);
        ConsumerHandle<Numbered> group = rig.stream.consumer("charge");
        Map<Long, Integer> before = new java.util.HashMap<>();
        LongStream.rangeClosed(1, 30).forEach(n -> before.put(n, ledger.runCount(n)));
        failing.set(false);

        OperatorAction discarded = group.deadLetters().discard(DeadLetterFilter.all().errorContaining("card"),
                "alice");
        OperatorAction redriven = group.deadLetters().redrive(DeadLetterFilter.all(), "bob");

        assertThat(discarded.affected()).isEqualTo(10);
        assertThat(discarded.filterJson()).isEqualToIgnoringWhitespace("{\"error_contains\":\"card\"}");
        assertThat(redriven.affected()).as("only what was still dead").isEqualTo(10);
        await("the redriven messages ran again").atMost(WAIT).until(() -> LongStream.rangeClosed(1, 30)
                .filter(n -> n % 3 == 1).allMatch(n -> ledger.runCount(n) == before.get(n) + 1));
        await("the group settled").atMost(WAIT).until(() -> rig.stream.consumer("charge").inspect().exceptions()
                .getOrDefault("ready", 0L) == 0);
        for (long n = 1; n <= 30; n++) {
            assertThat(ledger.runCount(n)).as("runs of payload " + n).isEqualTo(before.get(n) + (n % 3 == 1 ? 1 : 0));
        }
        Map<String, Long> rows = group.inspect().exceptions();
        assertThat(rows).as("discarded rows stay for audit; redriven ones succeeded")
                .containsEntry("discarded", 10L).doesNotContainKey("dead");
        long streamId = rig.streamId();
        assertThat(sql.count("SELECT count(*) FROM {s}.delivery_log_" + streamId
                + " WHERE status = 'redriven' AND error = 'redrive by bob (operator action " + redriven.id() + ")'"))
                .isEqualTo(10);
        assertThat(sql.count("SELECT count(*) FROM {s}.delivery_log_" + streamId + " WHERE status = 'discarded'"))
                .isEqualTo(10);
        assertThat(group.deadLetters().redrive(DeadLetterFilter.all(), "bob").affected()).as("idempotent").isZero();
        assertThat(group.actions(10)).extracting(OperatorAction::kind, OperatorAction::actor, OperatorAction::affected)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(OperatorAction.Kind.REDRIVE, "bob", 0L),
                        org.assertj.core.groups.Tuple.tuple(OperatorAction.Kind.REDRIVE, "bob", 10L),
                        org.assertj.core.groups.Tuple.tuple(OperatorAction.Kind.DISCARD, "alice", 10L));
        assertThat(rig.logger.withCode("SQL0149")).singleElement().asString()
                .contains("10 dead letter(s) discarded by alice");
        assertThat(rig.logger.withCode("SQL0148")).hasSize(2);
        assertThat(ids).hasSize(30);
    }

    @Test
    void badRequestsAreRefusedWithTheirCodeAndChangeNothing() throws Exception {
        produceAndKill("guarded", 3);
        var dead = rig.stream.consumer("guarded").deadLetters();
        DeadLetterFilter all = DeadLetterFilter.all();
        Set<Long> tooMany = new java.util.TreeSet<>();
        LongStream.rangeClosed(1, DeadLetterFilter.MAX_MESSAGE_IDS + 1).forEach(tooMany::add);

        assertCode(() -> rig.stream.consumer("absent").deadLetters().count(all), Code.SQL0014);
        assertCode(() -> rig.client.stream("absent.stream", Numbered.class).consumer("guarded").deadLetters()
                .redrive(all, null), Code.SQL0005);
        assertCode(() -> rig.stream.consumer("bad name;").deadLetters().count(all), Code.SQL0109);
        assertCode(() -> dead.redrive(all.idRange(9L, 3L), null), Code.SQL0152);
        assertCode(() -> dead.discard(all.idRange(0L, null), null), Code.SQL0152);
        assertCode(() -> dead.redrive(all.key("k\u0000"), null), Code.SQL0152);
        assertCode(() -> dead.redrive(all.errorContaining("x".repeat(DeadLetterFilter.MAX_TEXT + 1)), null),
                Code.SQL0152);
        assertCode(() -> dead.redrive(all.ids(tooMany), null), Code.SQL0152);
        assertCode(() -> dead.redrive(null, null), Code.SQL0152);
        assertCode(() -> dead.redrive(all, " "), Code.SQL0152);
        assertCode(() -> dead.list(all, PageRequest.first(0)), Code.SQL0152);
        assertCode(() -> dead.list(all, PageRequest.first(PageRequest.MAX_LIMIT + 1)), Code.SQL0152);
        assertCode(() -> dead.list(all, new PageRequest(10, -4L)), Code.SQL0152);
        assertCode(() -> dead.errors(all, 0), Code.SQL0152);
        assertCode(() -> rig.stream.consumer("guarded").blockedKeys(100_000), Code.SQL0152);
        assertCode(() -> rig.stream.consumer("guarded").pause("\n"), Code.SQL0152);

        assertThat(dead.count(all)).isEqualTo(2);
        assertThat(rig.stream.consumer("guarded").actions(10)).isEmpty();
    }

    @Test
    void anOrderedKeyWaitsBehindItsRetryingMessageAndADeadOneReleasesIt() throws Exception {
        ConsumerConfig ordered = ConsumerConfig.builder().message(MessageOptions.builder()
                .concurrency(Concurrency.ORDERED).retry(RetryPolicy.builder().maxRetries(3)
                        .baseDelay(Duration.ofMinutes(10)).maxDelay(Duration.ofMinutes(10)).build()).build()).build();
        List<Long> ids = new ArrayList<>();
        try (Producer<Numbered> producer = rig.stream.producer().register()) {
            for (long n = 1; n <= 6; n++) {
                ids.add(producer.produce(new Numbered(n), ProduceOptions.builder().messageKey(n <= 3 ? "acct-a"
                        : "acct-b").build()).id());
            }
        }
        rig.start(rig.register("ledger", ordered), ledger.handler("ledger", run -> {
            if (run.n() == 1) {
                throw new IllegalStateException("balance service down");
            }
            if (run.n() == 4) {
                throw Outcome.terminal("account closed");
            }
        }), fastSession().build());
        ConsumerHandle<Numbered> group = rig.stream.consumer("ledger");

        await("acct-a's followers wait behind its retry").atMost(WAIT).until(() ->
                group.blockedKeys(10).stream().anyMatch(key -> key.waiting() == 2));
        await("acct-b's followers ran after its first message died").atMost(WAIT)
                .until(() -> ledger.runCount(5) == 1 && ledger.runCount(6) == 1);
        List<BlockedKey> blocked = group.blockedKeys(10);
        assertThat(blocked).singleElement().satisfies(key -> {
            assertThat(key.messageKey()).isEqualTo("acct-a");
            assertThat(key.blockingId()).isEqualTo(ids.get(0));
            assertThat(key.blockingStatus()).isEqualTo("ready");
            assertThat(key.blockingRuns()).isEqualTo(1);
            assertThat(key.blockingError()).contains("balance service down");
            assertThat(key.blockingRunAfter()).isAfter(Instant.now().plusSeconds(60));
        });
        assertThat(ledger.runCount(2)).as("nothing of acct-a ran past its head").isZero();

        OperatorAction redriven = group.deadLetters().redrive(DeadLetterFilter.all().key("acct-b"), "carol");
        assertThat(redriven.affected()).isEqualTo(1);
        await("the redriven head of acct-b runs again").atMost(WAIT).until(() -> ledger.runCount(4) == 2);
    }

    /**
     * Registers {@code group}, produces payloads 1..count (keys k0 for even, k1 for odd), runs a session until
     * every message is handled, and returns the ids in payload order.
     */
    private List<Long> produceAndKill(String group, int count) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Producer<Numbered> producer = rig.stream.producer().register()) {
            for (long n = 1; n <= count; n++) {
                ids.add(producer.produce(new Numbered(n), ProduceOptions.builder().messageKey("k" + n % 2).build())
                        .id());
            }
        }
        rig.start(rig.register(group, ConsumeFixtures.quickRetries(3, SHORT)), ledger.handler(group, run -> {
            if (failing.get() && run.n() % 3 == 0) {
                throw Outcome.terminal(DECLINED);
            }
            if (failing.get() && run.n() % 3 == 1) {
                throw Outcome.terminal(SIGNIFICANT);
            }
        }), fastSession().build());
        long dead = LongStream.rangeClosed(1, count).filter(n -> n % 3 != 2).count();
        await("every message handled").atMost(WAIT).untilAsserted(() -> {
            assertThat(ledger.handled()).hasSize(count);
            assertThat(rig.stream.consumer(group).inspect().dead()).isEqualTo(dead);
        });
        return ids;
    }

    private static void assertCode(ThrowingCallable call, Code code) {
        SqlStreamsException refused = catchThrowableOfType(call, SqlStreamsException.class);
        assertThat(refused).as("refused with " + code).isNotNull();
        assertThat(refused.code()).as(refused.getMessage()).isEqualTo(code);
    }
}
