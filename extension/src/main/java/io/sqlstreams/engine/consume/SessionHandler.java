package io.sqlstreams.engine.consume;

import io.sqlstreams.BatchHandler;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.TransactionalHandler;

/**
 * The handler a session runs: a plain one, or one that writes inside the library's transaction, a message or a
 * range's batch at a time.
 */
sealed interface SessionHandler<T> {

    record Plain<T>(MessageHandler<T> handler) implements SessionHandler<T> {
    }

    /** @param batches null for a handler of one message; else the range's batch goes to it first */
    record Transactional<T>(TransactionalHandler<T> handler, BatchHandler<T> batches) implements SessionHandler<T> {
    }
}
