package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.Producer;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/**
 * 10,000 dead letters redriven by two operators at once (two clients, the same filter) while three sessions run
 * and new messages keep arriving: the two redrives together change each dead letter once, each runs exactly once
 * more, and nothing that was not dead runs again.
 */
@PostgresTest
class RedriveUnderLoadTest {
    private static final int DEAD = 10_000;
    private static final int HEALTHY = 500;
    private static final Duration WAIT = Duration.ofMinutes(3);

    private final Ledger ledger = new Ledger();
    private final AtomicBoolean failing = new AtomicBoolean(true);
    private Rig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "redrive");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void concurrentRedrivesRunEachDeadLetterExactlyOnceMore() throws Exception {
        for (String session : List.of("a", "b", "c")) {
            rig.start(rig.register("bulk", quickRetries(3, Duration.ofSeconds(20))), ledger.handler(session, run -> {
                if (failing.get() && run.n() <= DEAD) {
                    throw Outcome.terminal("poison " + run.n());
                }
            }), options());
        }
        produce(1, DEAD + HEALTHY);
        await("every message handled, the poisoned dead").atMost(WAIT).until(() ->
                ledger.handled().size() == DEAD + HEALTHY && rig.stream.consumer("bulk").inspect().dead() == DEAD);
        Map<Long, Integer> before = new HashMap<>();
        LongStream.rangeClosed(1, DEAD + HEALTHY).forEach(n -> before.put(n, ledger.runCount(n)));
        failing.set(false);

        CompletableFuture<OperatorAction> first = CompletableFuture.supplyAsync(() ->
                rig.stream.consumer("bulk").deadLetters().redrive(DeadLetterFilter.all(), "first"));
        CompletableFuture<OperatorAction> second = CompletableFuture.supplyAsync(() ->
                rig.streamOfAnotherClient(new io.sqlstreams.testing.RecordingLogger()).consumer("bulk").deadLetters()
                        .redrive(DeadLetterFilter.all(), "second"));
        produce(DEAD + HEALTHY + 1, HEALTHY);

        assertThat(first.get().affected() + second.get().affected()).as("each dead letter changed once")
                .isEqualTo(DEAD);
        await("every redriven message ran again, the new ones too").atMost(WAIT).until(() ->
                LongStream.rangeClosed(1, DEAD).allMatch(n -> ledger.runCount(n) > before.get(n))
                        && ledger.handled().size() == DEAD + 2 * HEALTHY);
        await("the group settled").atMost(WAIT).until(() -> {
            Map<String, Long> rows = rig.stream.consumer("bulk").inspect().exceptions();
            return rows.isEmpty();
        });
        for (long n = 1; n <= DEAD + HEALTHY; n++) {
            assertThat(ledger.runCount(n)).as("runs of payload " + n)
                    .isEqualTo(before.get(n) + (n <= DEAD ? 1 : 0));
        }
    }

    private void produce(int from, int count) {
        try (Producer<Numbered> producer = rig.stream.producer().register()) {
            producer.produceBatch(IntStream.range(from, from + count).mapToObj(n -> ProduceItem.of(new Numbered(n)))
                    .toList());
        }
    }

    private static ConsumeOptions options() {
        return fastSession().batchLimit(100).queueSize(200).build();
    }
}
