package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import io.sqlstreams.Outcome;
import io.sqlstreams.SqlStreamsException;

/**
 * Every way a handler run can end, as the classifier maps it. The retry budget is not the classifier's: a
 * {@link DeliveryOutcome.Retry} becomes dead in PostgreSQL once MaxRetries runs are spent, which
 * {@code DeliveryOutcomesTest} and {@code OrderedKeyTest} check end to end.
 */
class OutcomeClassifierTest {
    /** A hang guard only: a cyclic cause chain used to spin the classifier forever. */
    private static final Duration NO_HANG = Duration.ofSeconds(10);

    @Test
    void aCyclicCauseChainIsClassifiedOnceRoundTheCycle() {
        IllegalStateException outer = new IllegalStateException("outer");
        IllegalArgumentException inner = new IllegalArgumentException("inner", outer);
        outer.initCause(inner);

        DeliveryOutcome retried = assertTimeoutPreemptively(NO_HANG, () -> OutcomeClassifier.classify(outer));
        assertThat(retried).isInstanceOfSatisfying(DeliveryOutcome.Retry.class,
                retry -> assertThat(retry.error()).startsWith("java.lang.IllegalStateException: outer"));

        RuntimeException wrapper = new RuntimeException("wrapper");
        RuntimeException loop = new RuntimeException("loop", wrapper);
        wrapper.initCause(loop);
        loop.addSuppressed(Outcome.delay(Duration.ofSeconds(1)));
        DeliveryOutcome stillRetried = assertTimeoutPreemptively(NO_HANG, () -> OutcomeClassifier.classify(wrapper));
        assertThat(stillRetried).isInstanceOf(DeliveryOutcome.Retry.class);
    }

    @Test
    void aHandlerThatReturnedSucceeded() {
        assertThat(OutcomeClassifier.classify(null)).isEqualTo(new DeliveryOutcome.Success());
    }

    @Test
    void aPlainExceptionRetriesWithItsStackAsTheError() {
        DeliveryOutcome outcome = OutcomeClassifier.classify(new IllegalStateException("card declined"));

        assertThat(outcome).isInstanceOfSatisfying(DeliveryOutcome.Retry.class, retry -> assertThat(retry.error())
                .startsWith("java.lang.IllegalStateException: card declined")
                .contains("\tat " + OutcomeClassifierTest.class.getName()));
    }

    @Test
    void aTerminalOutcomeIsDeadWithItsMessageAlone() {
        DeliveryOutcome outcome = OutcomeClassifier.classify(Outcome.terminal("the order was cancelled"));

        assertThat(outcome).isEqualTo(new DeliveryOutcome.Dead("SQL0055 delivery cannot succeed: the order was cancelled"));
    }

    @Test
    void aTerminalOutcomeWithACauseIsDeadWithTheCauseInItsError() {
        DeliveryOutcome outcome = OutcomeClassifier.classify(Outcome.terminal(new NumberFormatException("x1")));

        assertThat(outcome).isInstanceOfSatisfying(DeliveryOutcome.Dead.class, dead -> assertThat(dead.error())
                .startsWith("io.sqlstreams.Outcome$Terminal: SQL0055")
                .contains("Caused by: java.lang.NumberFormatException: x1"));
    }

    /** A handler failing under a deep stack (a server's interceptors) still has its cause in the stored error. */
    @Test
    void theCauseOfAFailureUnderADeepStackIsInItsError() {
        RuntimeException deep = thrownAtDepth(600, new IllegalStateException("inventory unavailable"));

        DeliveryOutcome outcome = OutcomeClassifier.classify(deep);

        assertThat(outcome).isInstanceOfSatisfying(DeliveryOutcome.Retry.class, retry -> assertThat(retry.error())
                .startsWith("java.lang.RuntimeException: wrapped")
                .contains("Caused by: java.lang.IllegalStateException: inventory unavailable")
                .containsPattern("\\.\\.\\. [0-9]+ more")
                .hasSizeLessThan(8000));
    }

    private static RuntimeException thrownAtDepth(int depth, Throwable cause) {
        if (depth > 0) {
            return thrownAtDepth(depth - 1, cause);
        }
        return new RuntimeException("wrapped", cause);
    }

    @Test
    void aTerminalOutcomeWrappedByTheHandlerIsDeadWithTheTerminalAsTheError() {
        Outcome.Terminal terminal = Outcome.terminal("poison");

        DeliveryOutcome outcome = OutcomeClassifier.classify(new CompletionException(new ExecutionException(terminal)));

        assertThat(outcome).isEqualTo(new DeliveryOutcome.Dead(terminal.getMessage()));
    }

    @Test
    void aDelayRunsLaterAfterItsDurationWithItsCode() {
        DeliveryOutcome outcome = OutcomeClassifier.classify(Outcome.delay(Duration.ofSeconds(90)));

        assertThat(outcome).isEqualTo(new DeliveryOutcome.Delay(Duration.ofSeconds(90),
                "handler asked to run it later: delay PT1M30S [SQL0054]"));
    }

    @Test
    void aDelayAnywhereInTheCauseChainRunsLater() {
        RuntimeException wrapped = new RuntimeException("outer", new IllegalStateException("middle",
                Outcome.delay(Duration.ofMillis(250))));

        assertThat(OutcomeClassifier.classify(wrapped)).isInstanceOfSatisfying(DeliveryOutcome.Delay.class,
                delay -> assertThat(delay.after()).isEqualTo(Duration.ofMillis(250)));
    }

    @Test
    void aDelayWinsOverATerminalOutcomeInTheSameChain() {
        Outcome.Terminal terminal = Outcome.terminal(Outcome.delay(Duration.ofSeconds(5)));

        assertThat(OutcomeClassifier.classify(terminal)).isInstanceOf(DeliveryOutcome.Delay.class);
    }

    @Test
    void aPermanentCodedErrorIsDeadAndATransientOrUnrecoverableOneRetries() {
        SqlStreamsException permanent = new SqlStreamsException(Code.SQL0005, "stream \"audit\" does not exist");
        SqlStreamsException transientFailure = new SqlStreamsException(Code.SQL0110, "PostgreSQL is down");
        SqlStreamsException noRecovery = new SqlStreamsException(Code.SQL0026, "an event thrown as an error");

        assertThat(OutcomeClassifier.classify(new RuntimeException(permanent)))
                .isEqualTo(new DeliveryOutcome.Dead(permanent.getMessage()));
        assertThat(OutcomeClassifier.classify(transientFailure))
                .isEqualTo(new DeliveryOutcome.Retry(transientFailure.getMessage()));
        assertThat(OutcomeClassifier.classify(noRecovery)).isInstanceOf(DeliveryOutcome.Retry.class);
    }

    @Test
    void anInterruptOrAnErrorRetries() {
        assertThat(OutcomeClassifier.classify(new InterruptedException("stopping"))).isInstanceOfSatisfying(
                DeliveryOutcome.Retry.class, retry -> assertThat(retry.error())
                        .startsWith("java.lang.InterruptedException: stopping"));
        assertThat(OutcomeClassifier.classify(new OutOfMemoryError("Java heap space"))).isInstanceOfSatisfying(
                DeliveryOutcome.Retry.class, retry -> assertThat(retry.error())
                        .startsWith("java.lang.OutOfMemoryError: Java heap space"));
        assertThat(OutcomeClassifier.classify(new StackOverflowError())).isInstanceOf(DeliveryOutcome.Retry.class);
    }

    @Test
    void theStoredErrorIsCutAt8000Characters() {
        String huge = "x".repeat(20_000);

        String error = ((DeliveryOutcome.Retry) OutcomeClassifier.classify(new RuntimeException(huge))).error();

        assertThat(error).hasSize(8000 + " …".length()).endsWith("x …");
    }
}
