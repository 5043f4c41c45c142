package io.sqlstreams.engine.consume;

import java.io.PrintWriter;
import java.io.StringWriter;
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

    /** The error text stored on an exception row: the exception with its stack, bounded in length. */
    static String describe(Throwable thrown) {
        if (thrown instanceof SqlStreamsException && thrown.getCause() == null) {
            return thrown.getMessage();
        }
        StringWriter text = new StringWriter();
        thrown.printStackTrace(new PrintWriter(text));
        String full = text.toString().strip();
        return full.length() <= MAX_ERROR_LENGTH ? full : full.substring(0, MAX_ERROR_LENGTH) + " …";
    }
}
