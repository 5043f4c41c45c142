package io.sqlstreams.engine.consume;

import java.time.Duration;

import io.sqlstreams.ConsumeOptions;

/**
 * What one run of a message needs of a lease: its timeout, the grace after which a handler still running is
 * abandoned, and the margin to record its outcome. The start guard of a queued message, the key lease of a run
 * and the wait of a key chain are all sized by it.
 */
record LeaseBudget(Duration grace, Duration recordMargin) {

    static LeaseBudget of(ConsumeOptions options) {
        return new LeaseBudget(options.resolvedTimeoutGrace(), options.resolvedRecordMargin());
    }

    /** Timeout + grace + record margin: the lease a run of {@code delivery} needs left to start. */
    Duration needed(Delivery delivery) {
        return handlerBound(delivery).plus(recordMargin);
    }

    /** Timeout + grace: by then the handler has returned or been abandoned, so its outcome is known. */
    Duration handlerBound(Delivery delivery) {
        return delivery.options().timeout().plus(grace);
    }
}
