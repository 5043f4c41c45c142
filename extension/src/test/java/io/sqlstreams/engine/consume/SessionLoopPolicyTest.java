package io.sqlstreams.engine.consume;

import static io.sqlstreams.engine.consume.ConsumeFixtures.fastSession;
import static io.sqlstreams.engine.consume.ConsumeFixtures.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.SessionTestKit.Ledger;
import io.sqlstreams.engine.consume.SessionTestKit.Rig;
import io.sqlstreams.engine.consume.SessionTestKit.Work;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/**
 * The one loop policy (DESIGN §3): a loop of a running session that exits without a requested stop — here
 * because its thread is interrupted — fails the session within a second with SQL0113 on a coded line, and its
 * heartbeat stops with it.
 */
@PostgresTest
class SessionLoopPolicyTest {
    private static final String GROUP = "loops";
    private static final ConsumerConfig DECLARATION = quickRetries(3, Duration.ofSeconds(2));

    private final Ledger ledger = new Ledger();
    private Rig rig;

    @BeforeEach
    void setUp(TestDatabase database) {
        rig = SessionTestKit.rig(database, "loops");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"claim", "dispatch", "exceptions", "heartbeat", "refresh", "metrics"})
    void anInterruptedLoopFailsTheSessionWithItsCode(String loop) throws Exception {
        ConsumerInstance<Numbered> instance = rig.register(GROUP, DECLARATION);
        ConsumerSession session = rig.start(instance, ledger.handler("interrupted", Work.SUCCEED),
                fastSession().build());
        rig.produce(1);
        ledger.awaitFirstRun(1, Duration.ofSeconds(10));
        Thread thread = SessionThreads.of(session, loop).stream().findFirst().orElseThrow();
        assertThat(SessionThreads.of(session, "heartbeat")).as("the session's heartbeat thread").hasSize(1);

        thread.interrupt();

        await().alias("the session fails").atMost(Duration.ofSeconds(1)).until(() -> session.failure().isPresent());
        assertThat(session.failure().orElseThrow()).isInstanceOfSatisfying(SqlStreamsException.class, failure -> {
            assertThat(failure.code()).isEqualTo(Code.SQL0113);
            assertThat(failure.getMessage()).contains("loop " + thread.getName() + " was interrupted");
        });
        await().alias("the session stops").atMost(Duration.ofSeconds(10)).until(() -> !session.isRunning());
        assertThat(rig.logger.withCode("SQL0113")).as("the coded failure line").singleElement()
                .satisfies(line -> assertThat(line).contains("session " + session.id()).contains("failed and stops"));
        await().alias("every thread of the session, heartbeat included, ends").atMost(Duration.ofSeconds(10))
                .until(() -> SessionThreads.of(session).isEmpty());
        assertThat(rig.instanceRows(GROUP)).as("liveness rows released").isZero();

        ConsumerSession again = rig.start(instance, ledger.handler("again", Work.SUCCEED), fastSession().build());
        rig.produce(2);
        assertThat(ledger.awaitFirstRun(2, Duration.ofSeconds(10)).session()).isEqualTo("again");
        assertThat(again.isRunning()).isTrue();
    }

    /** The live threads of a session, found by the names it gives them. */
    static final class SessionThreads {
        private SessionThreads() {
        }

        static List<Thread> of(ConsumerSession session) {
            return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                    .filter(thread -> thread.getName().startsWith("sqlstreams-")
                            && thread.getName().endsWith("-" + session.id()))
                    .toList();
        }

        static List<Thread> of(ConsumerSession session, String role) {
            return of(session).stream().filter(thread -> thread.getName().startsWith("sqlstreams-" + role + "-"))
                    .toList();
        }
    }
}
