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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.MessageWhereabouts;
import io.sqlstreams.MessageWhereabouts.State;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/**
 * Where a message stands in each group, read while it stands there: four messages of key "order-9" in a group
 * whose handler succeeds on 1, holds 2, fails 3 with a ten-minute backoff and kills 4; a group that handles all of
 * them; and a registered group without a session.
 */
@PostgresTest
class MessageLocatorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Ledger ledger = new Ledger();
    private final CountDownLatch holding = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private Rig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "locate");
    }

    @AfterEach
    void tearDown() {
        release.countDown();
        rig.close();
    }

    @Test
    void eachGroupShowsWhereTheMessageStands() throws Exception {
        rig.register("idle", ConsumerConfig.defaults());
        List<Long> ids = new ArrayList<>();
        try (Producer<Numbered> producer = rig.stream.producer().register()) {
            for (long n = 1; n <= 4; n++) {
                ids.add(producer.produce(new Numbered(n), ProduceOptions.builder().messageKey("order-9").build()).id());
            }
        }
        rig.start(rig.register("all", ConsumeFixtures.quickRetries(3, Duration.ofSeconds(3))),
                ledger.handler("all", run -> { }),
                fastSession().build());
        ConsumerConfig slowRetries = ConsumerConfig.builder().exceptionInitialBackoff(Duration.ofMinutes(10)).message(MessageOptions.builder()
                .timeout(Duration.ofSeconds(20)).retry(RetryPolicy.builder().maxRetries(3)
                        .baseDelay(Duration.ofMinutes(10)).maxDelay(Duration.ofMinutes(10)).build()).build()).build();
        rig.start(rig.register("mixed", slowRetries), ledger.handler("mixed", run -> {
            if (run.n() == 2) {
                holding.countDown();
                release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } else if (run.n() == 3) {
                throw new IllegalStateException("gateway timeout");
            } else if (run.n() == 4) {
                throw Outcome.terminal("card stolen");
            }
        }), fastSession().batchLimit(1).messageConcurrency(4).build());
        assertThat(holding.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        await("3 retrying, 4 dead, 1 done in the mixed group").atMost(WAIT).until(() ->
                states("mixed", ids).equals(List.of(State.DONE, State.IN_FLIGHT, State.RETRYING, State.DEAD)));
        await("every message done in the other group").atMost(WAIT).until(() ->
                states("all", ids).equals(List.of(State.DONE, State.DONE, State.DONE, State.DONE)));

        MessageWhereabouts third = rig.stream.locate(ids.get(2)).orElseThrow();
        assertThat(third.messageKey()).isEqualTo("order-9");
        assertThat(third.groups()).containsOnlyKeys("all", "idle", "mixed");
        assertThat(third.groups().get("idle").state()).as("no session ever ran").isEqualTo(State.PENDING);
        MessageWhereabouts.Placement retrying = third.groups().get("mixed");
        assertThat(retrying.runs()).isEqualTo(1);
        assertThat(retrying.lastError()).contains("gateway timeout");
        assertThat(retrying.runAfter()).isAfter(Instant.now().plusSeconds(60));

        List<MessageWhereabouts> byKey = rig.stream.locateKey("order-9", 3);
        assertThat(byKey).extracting(MessageWhereabouts::id).as("the newest three")
                .containsExactly(ids.get(3), ids.get(2), ids.get(1));
        rig.stream.consumer("mixed").deadLetters().discard(DeadLetterFilter.all(), "ops");
        assertThat(rig.stream.locate(ids.get(3)).orElseThrow().groups().get("mixed").state())
                .isEqualTo(State.DISCARDED);

        assertThat(rig.stream.locate(ids.get(3) + 1_000)).as("no such message").isEmpty();
        assertThat(rig.stream.locateKey("order-404", 10)).isEmpty();
        assertThat(code(() -> rig.stream.locate(0))).isEqualTo(Code.SQL0152);
        assertThat(code(() -> rig.stream.locateKey("order-9", 0))).isEqualTo(Code.SQL0152);
        assertThat(code(() -> rig.stream.locateKey("x".repeat(1_001), 1))).isEqualTo(Code.SQL0152);
        assertThat(code(() -> rig.client.stream("locate.absent", Numbered.class).locate(1))).isEqualTo(Code.SQL0005);
    }

    private List<State> states(String group, List<Long> ids) {
        Map<Long, MessageWhereabouts> found = new java.util.HashMap<>();
        rig.stream.locateKey("order-9", 10).forEach(message -> found.put(message.id(), message));
        return ids.stream().map(id -> found.get(id).groups().get(group).state()).toList();
    }

    private static Code code(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        SqlStreamsException refused = catchThrowableOfType(call, SqlStreamsException.class);
        assertThat(refused).isNotNull();
        return refused.code();
    }
}
