package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

import io.sqlstreams.BatchHandler;
import io.sqlstreams.BatchItem;
import io.sqlstreams.engine.telemetry.ProcessTrace;
import io.sqlstreams.engine.telemetry.RunEnd;

/**
 * The first try of a range's batch: every message that may run, in one call of the batch handler under one
 * savepoint of the range's transaction and the longest timeout of its items. It keeps its writes only when the call
 * returned with no item failed; otherwise they are rolled back and the range runs one message at a time instead. A
 * payload that does not decode is dead and left out of the batch.
 */
final class BatchAttempt<T> {
    enum Result { ALL_SUCCEEDED, FALL_BACK, ABANDONED }

    private final HandlerInvocation<T> invocation;
    private final BatchHandler<T> handler;
    private final ScheduledExecutorService timer;
    private final Duration grace;

    BatchAttempt(HandlerInvocation<T> invocation, BatchHandler<T> handler, ScheduledExecutorService timer,
                 Duration grace) {
        this.invocation = invocation;
        this.handler = handler;
        this.timer = timer;
        this.grace = grace;
    }

    /**
     * Runs {@code runnable} as one batch; on {@link Result#ALL_SUCCEEDED} {@code outcomes} has each one's outcome.
     *
     * @param abandon run on the timer's thread when the call outlives the timeout and grace
     */
    Result run(List<Delivery> runnable, HandlerTransaction transaction, Duration timeout, Runnable abandon,
               Map<Long, DeliveryOutcome> outcomes) {
        List<HandlerInvocation.Prepared<T>> ready = new ArrayList<>();
        for (Delivery delivery : runnable) {
            HandlerInvocation.Prepared<T> prepared = invocation.prepare(delivery);
            if (prepared.undecodable() != null) {
                outcomes.put(delivery.messageId(), prepared.undecodable());
            } else {
                ready.add(prepared);
            }
        }
        List<OneItemBatches.Item<T>> items = ready.stream()
                .map(prepared -> new OneItemBatches.Item<>(prepared.payload(), prepared.meta())).toList();
        List<ProcessTrace> traces = ready.stream().map(invocation::trace).toList();
        MessageWatch watch = MessageWatch.start(timer, timeout, grace, abandon);
        Throwable thrown = null;
        try {
            MessageSavepoint.call((List<BatchItem<T>> batch, Connection lent) -> {
                OneItemBatches.call(handler, batch, lent);
                throwIfAnyFailed(items);
            }, List.<BatchItem<T>>copyOf(items), transaction);
        } catch (Exception | Error failure) {
            thrown = failure;
        }
        if (!watch.finished()) {
            return Result.ABANDONED;
        }
        RunEnd end = thrown == null ? RunEnd.SUCCEEDED : RunEnd.HANDED_BACK;
        for (ProcessTrace trace : traces) {
            trace.ended(end, thrown);
        }
        if (thrown != null) {
            return Result.FALL_BACK;
        }
        ready.forEach(prepared -> outcomes.put(prepared.delivery().messageId(), new DeliveryOutcome.Success()));
        return Result.ALL_SUCCEEDED;
    }

    private static <T> void throwIfAnyFailed(List<OneItemBatches.Item<T>> items) {
        long failed = items.stream().filter(item -> item.failure() != null).count();
        if (failed > 0) {
            throw new IllegalStateException(failed + " item(s) of the batch failed; it runs again one at a time");
        }
    }
}
