package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;

import io.sqlstreams.TransactionalHandler;

/**
 * Calls a transactional handler for one message under a savepoint of the library's transaction: what the message
 * wrote is kept when the handler returns and rolled back when it throws. A handler that returns after swallowing an
 * error of its own statement (the transaction is then aborted) fails like one that threw.
 */
final class MessageSavepoint {
    private MessageSavepoint() {
    }

    static <T> void call(TransactionalHandler<T> handler, T payload, HandlerTransaction library) throws Exception {
        Connection transaction = library.connection();
        Savepoint savepoint = transaction.setSavepoint();
        try {
            handler.handle(payload, LentConnection.lend(library));
        } catch (Exception | Error failure) {
            rollBackTo(transaction, savepoint, failure);
            throw failure;
        }
        try {
            transaction.releaseSavepoint(savepoint);
        } catch (SQLException aborted) {
            SQLException failure = new SQLException("the handler returned, but a statement it ran had failed and"
                    + " left its transaction aborted: " + aborted.getMessage(), aborted.getSQLState(), aborted);
            rollBackTo(transaction, savepoint, failure);
            throw failure;
        }
    }

    private static void rollBackTo(Connection transaction, Savepoint savepoint, Throwable failure) {
        try {
            transaction.rollback(savepoint);
        } catch (SQLException rollbackFailure) {
            failure.addSuppressed(rollbackFailure);
        }
    }
}
