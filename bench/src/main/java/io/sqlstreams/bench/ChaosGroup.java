package io.sqlstreams.bench;

import java.time.Duration;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.RetryPolicy;

/**
 * The chaos lab's consumer group as both sides know it: the declaration the harness registers and every consumer
 * process declares again (the newest declaration wins, so they must agree), and the session options of each
 * process.
 */
final class ChaosGroup {
    static final String GROUP = "chaos";
    /** Every consumer process's connections carry this application name; the storms terminate them by it. */
    static final String APPLICATION_NAME = "sqlstreams-chaos-consumer";
    /**
     * The handler timeout. A handler's ledger writes give up well before it (see {@link RunLedger}), so no handler
     * outlives its run and every overlap in the ledger is the engine's.
     */
    static final Duration HANDLER_TIMEOUT = Duration.ofSeconds(10);
    /** Runs of a poison message before it is dead-lettered. */
    static final int MAX_RETRIES = 5;
    static final int TRANSACTIONAL_BATCH_LIMIT = 20;

    private ChaosGroup() {
    }

    static ConsumerConfig declaration() {
        return ConsumerConfig.builder()
                .message(MessageOptions.builder().timeout(HANDLER_TIMEOUT)
                        .retry(RetryPolicy.builder().maxRetries(MAX_RETRIES).baseDelay(Duration.ofMillis(200))
                                .maxDelay(Duration.ofSeconds(2)).build())
                        .build())
                .exceptionInitialBackoff(Duration.ofMillis(200))
                .build();
    }

    /**
     * Small ranges, several messages at once, quick polls and short margins: a killed process's leases
     * (timeout + grace + queue margin + record margin, about 13 s) expire soon enough for the drain. A plain
     * handler leaves batchLimit at its default, so its ranges start at 4 and grow while a backlog lasts; a
     * transactional one claims 20 at a time.
     */
    static ConsumeOptions options(HandlerMode mode) {
        ConsumeOptions.Builder options = ConsumeOptions.builder().queueSize(40).messageConcurrency(4)
                .claimPollRate(Duration.ofMillis(100)).queueMargin(Duration.ofSeconds(2))
                .recordMargin(Duration.ofSeconds(1));
        return (mode == HandlerMode.TRANSACTIONAL ? options.batchLimit(TRANSACTIONAL_BATCH_LIMIT) : options).build();
    }
}
