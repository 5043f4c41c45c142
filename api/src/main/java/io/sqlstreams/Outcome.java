package io.sqlstreams;

import java.time.Duration;
import java.util.Objects;

/**
 * A handler's explicit outcome, thrown from {@link MessageHandler#handle}: {@code throw Outcome.terminal(e)}
 * dead-letters the delivery now (SQL0055); {@code throw Outcome.delay(d)} runs it again after {@code d}
 * without counting a failure (SQL0054). Any other exception is an ordinary failure and retries.
 */
public abstract sealed class Outcome extends SqlStreamsException permits Outcome.Terminal, Outcome.Delay {
    private static final long serialVersionUID = 1L;

    private Outcome(Code code, String message, Throwable cause) {
        super(code, message, cause);
    }

    /** The delivery cannot succeed: dead-letter it now, whatever retry budget is left. */
    public static Terminal terminal(Throwable cause) {
        return new Terminal(Objects.requireNonNull(cause, "cause").toString(), cause);
    }

    /** The delivery cannot succeed, for the reason given: dead-letter it now. */
    public static Terminal terminal(String reason) {
        return new Terminal(Objects.requireNonNull(reason, "reason"), null);
    }

    /**
     * Run the delivery again after {@code after}, without counting a failure. The group's
     * {@code maxDelays} caps how often a delivery may be delayed before it dead-letters.
     *
     * @throws InvalidConfigurationException (SQL0108) when {@code after} is null, zero, negative or longer than
     *                                       {@link Limits#LONGEST_TIMING}
     */
    public static Delay delay(Duration after) {
        Violations violations = new Violations();
        violations.require(after != null && !after.isNegative() && !after.isZero(), "delay", after, "must be positive");
        violations.atMost("delay", after, Limits.LONGEST_TIMING);
        violations.throwIfAny();
        return new Delay(after);
    }

    /** SQL0055: the delivery is dead-lettered at once. */
    public static final class Terminal extends Outcome {
        private static final long serialVersionUID = 1L;

        private Terminal(String reason, Throwable cause) {
            super(Code.SQL0055, "delivery cannot succeed: " + reason, cause);
        }
    }

    /** SQL0054: the delivery runs again after {@link #after()}. */
    public static final class Delay extends Outcome {
        private static final long serialVersionUID = 1L;

        private final Duration after;

        private Delay(Duration after) {
            super(Code.SQL0054, "delivery asked to run again after " + after, null);
            this.after = after;
        }

        public Duration after() {
            return after;
        }
    }
}
