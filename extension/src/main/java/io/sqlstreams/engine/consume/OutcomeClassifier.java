package io.sqlstreams.engine.consume;

import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.Outcome;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.CauseChain;

/**
 * Turns what a handler threw into an outcome, looking through the whole cause chain in this order: a
 * {@link Outcome.Delay} runs later; a permanent coded error (such as {@link Outcome#terminal}) is dead now;
 * anything else retries, because the wrong default would lose a message while this one costs a curve.
 */
final class OutcomeClassifier {
    private static final int MAX_ERROR_LENGTH = 8000;
    private static final int FRAMES_PER_CAUSE = 12;

    private OutcomeClassifier() {
    }

    static DeliveryOutcome classify(Throwable thrown) {
        if (thrown == null) {
            return new DeliveryOutcome.Success();
        }
        List<Throwable> chain = CauseChain.of(thrown);
        for (Throwable cause : chain) {
            if (cause instanceof Outcome.Delay delay) {
                return new DeliveryOutcome.Delay(delay.after(), "handler asked to run it later: delay " + delay.after()
                        + " [" + Code.SQL0054.id() + "]");
            }
        }
        for (Throwable cause : chain) {
            if (cause instanceof SqlStreamsException coded && coded.code().recovery() == Code.Recovery.PERMANENT) {
                return new DeliveryOutcome.Dead(describe(coded));
            }
        }
        return new DeliveryOutcome.Retry(describe(thrown));
    }

    /**
     * The error text stored on an exception row: the exception and each of its causes with the top of its stack, so
     * that a cause is still there under a deep stack (a server's interceptors, a test runner), bounded in length.
     */
    static String describe(Throwable thrown) {
        if (thrown instanceof SqlStreamsException && thrown.getCause() == null) {
            return thrown.getMessage();
        }
        StringBuilder text = new StringBuilder();
        for (Throwable each : CauseChain.of(thrown)) {
            text.append(each == thrown ? "" : "\nCaused by: ").append(each);
            StackTraceElement[] frames = each.getStackTrace();
            int shown = Math.min(frames.length, FRAMES_PER_CAUSE);
            for (int i = 0; i < shown; i++) {
                text.append("\n\tat ").append(frames[i]);
            }
            if (frames.length > shown) {
                text.append("\n\t... ").append(frames.length - shown).append(" more");
            }
        }
        return text.length() <= MAX_ERROR_LENGTH ? text.toString() : text.substring(0, MAX_ERROR_LENGTH) + " …";
    }
}
