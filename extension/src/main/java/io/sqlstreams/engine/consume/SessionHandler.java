package io.sqlstreams.engine.consume;

import io.sqlstreams.BatchHandler;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.TransactionalHandler;
import io.sqlstreams.engine.HostTransactions;

/**
 * The handler a session runs: a plain one, or one that writes inside the library's transaction, a message or a
 * range's batch at a time, or a plain one that runs in the host's transaction, a message at a time.
 */
sealed interface SessionHandler<T> {

    /** Whether the handler's writes commit with the outcome: a range runs whole, and a retry records its success. */
    default boolean commitsWithItsOutcome() {
        return !(this instanceof Plain<T>);
    }

    record Plain<T>(MessageHandler<T> handler) implements SessionHandler<T> {
    }

    /** @param batches null for a handler of one message; else the range's batch goes to it first */
    record Transactional<T>(TransactionalHandler<T> handler, BatchHandler<T> batches) implements SessionHandler<T> {
    }

    record Enlisted<T>(MessageHandler<T> handler, HostTransactions transactions) implements SessionHandler<T> {
    }
}
