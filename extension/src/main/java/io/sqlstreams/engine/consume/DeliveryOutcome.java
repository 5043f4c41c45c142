package io.sqlstreams.engine.consume;

import java.time.Duration;

/** How one run of a delivery ended, as the engine records it. */
sealed interface DeliveryOutcome {

    /** Whether the next message of an ordered key may run after this one: it succeeded, went dead or was superseded. */
    default boolean letsTheOrderedKeyContinue() {
        return this instanceof Success || this instanceof Dead || this instanceof Superseded;
    }

    /** The handler returned normally. */
    record Success() implements DeliveryOutcome {
    }

    /** An ordinary failure: retried under the retry policy, dead once the budget is spent. */
    record Retry(String error) implements DeliveryOutcome {
    }

    /** The handler asked to run again after {@code after}; no failure is counted. */
    record Delay(Duration after, String text) implements DeliveryOutcome {
    }

    /** Cannot succeed: dead-lettered now. */
    record Dead(String error) implements DeliveryOutcome {
    }

    /** Did not run because its key was busy or an earlier message of its key is unresolved: waits its turn. */
    record Deferred(String reason) implements DeliveryOutcome {
    }

    /** Did not run because a newer version of its compacted key is the head now: never delivered. */
    record Superseded() implements DeliveryOutcome {
    }
}
