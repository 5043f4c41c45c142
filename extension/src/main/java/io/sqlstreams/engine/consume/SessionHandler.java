package io.sqlstreams.engine.consume;

import java.util.function.Supplier;

import javax.sql.DataSource;

import io.sqlstreams.BatchHandler;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.TransactionalHandler;
import io.sqlstreams.engine.HostTransactions;

/**
 * The handler a session runs: a plain one, or one that writes inside the library's transaction, a message or a
 * range's batch at a time, or a plain one that runs in the host's transaction, a message at a time. Each form
 * says how the session runs it, so the session never asks which form it has.
 */
sealed interface SessionHandler<T> {

    /** Whether the handler's writes commit with the outcome: a range runs whole, and a retry records its success. */
    default boolean commitsWithItsOutcome() {
        return !(this instanceof Plain<T>);
    }

    /** What a run on the exception path does with a payload: call the handler, in its transaction if it has one. */
    HandlerRunner.HandlerBody<T> retryBody(DataSource library, LeaseBudget budget);

    /** What runs the session's dispatched units: whole ranges in transactions, or {@code plain} units. */
    Dispatcher.UnitRunner units(Class<T> payloadType, RangeRun.Parts parts, Supplier<Dispatcher.UnitRunner> plain);

    record Plain<T>(MessageHandler<T> handler) implements SessionHandler<T> {
        @Override
        public HandlerRunner.HandlerBody<T> retryBody(DataSource library, LeaseBudget budget) {
            return (delivery, payload) -> handler.handle(payload);
        }

        @Override
        public Dispatcher.UnitRunner units(Class<T> payloadType, RangeRun.Parts parts,
                                           Supplier<Dispatcher.UnitRunner> plain) {
            return plain.get();
        }
    }

    /** @param batches null for a handler of one message; else the range's batch goes to it first */
    record Transactional<T>(TransactionalHandler<T> handler, BatchHandler<T> batches) implements SessionHandler<T> {
        @Override
        public HandlerRunner.HandlerBody<T> retryBody(DataSource library, LeaseBudget budget) {
            return new RetryTransactions<>(library, handler);
        }

        @Override
        public Dispatcher.UnitRunner units(Class<T> payloadType, RangeRun.Parts parts,
                                           Supplier<Dispatcher.UnitRunner> plain) {
            return new RangeTransactions<>(payloadType, this, parts);
        }
    }

    record Enlisted<T>(MessageHandler<T> handler, HostTransactions transactions) implements SessionHandler<T> {
        @Override
        public HandlerRunner.HandlerBody<T> retryBody(DataSource library, LeaseBudget budget) {
            return new EnlistedRetries<>(this, budget);
        }

        @Override
        public Dispatcher.UnitRunner units(Class<T> payloadType, RangeRun.Parts parts,
                                           Supplier<Dispatcher.UnitRunner> plain) {
            return new EnlistedRanges<>(payloadType, this, parts);
        }
    }
}
