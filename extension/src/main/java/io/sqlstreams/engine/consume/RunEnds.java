package io.sqlstreams.engine.consume;

import io.sqlstreams.engine.telemetry.RunEnd;

/** How telemetry names the end of a handler run, from the outcome the engine is about to record. */
final class RunEnds {
    private RunEnds() {
    }

    /**
     * The end of {@code delivery}'s run that ended as {@code outcome}. A retry whose counted runs (its runs less its
     * delays) exceed the retry budget is dead, as the database will record it.
     */
    static RunEnd of(DeliveryOutcome outcome, Delivery delivery) {
        if (outcome instanceof DeliveryOutcome.Success) {
            return RunEnd.SUCCEEDED;
        }
        if (outcome instanceof DeliveryOutcome.Retry) {
            Integer budget = delivery.options().retry() == null ? null : delivery.options().retry().maxRetries();
            boolean spent = budget != null && delivery.attempt() - delivery.delays() > budget;
            return spent ? RunEnd.DEAD_LETTERED : RunEnd.RETRY;
        }
        if (outcome instanceof DeliveryOutcome.Delay) {
            return RunEnd.DELAYED;
        }
        if (outcome instanceof DeliveryOutcome.Dead) {
            return RunEnd.DEAD_LETTERED;
        }
        if (outcome instanceof DeliveryOutcome.Superseded) {
            return RunEnd.SUPERSEDED;
        }
        return RunEnd.HANDED_BACK;
    }
}
