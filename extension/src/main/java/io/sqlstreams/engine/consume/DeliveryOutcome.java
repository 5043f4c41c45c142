package io.sqlstreams.engine.consume;

import java.time.Duration;

/** How one run of a delivery ended, as the engine records it. */
sealed interface DeliveryOutcome {

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
}
