package io.sqlstreams;

import java.sql.Connection;

/**
 * Handles one delivered message inside the library's transaction: what the handler writes through
 * {@code connection} and the delivery's outcome commit together, so as far as that database is concerned the
 * effect happens exactly once. Returning normally is success; throwing rolls back what this message wrote (its
 * savepoint) and records the failure as {@link MessageHandler} describes ({@link Outcome#terminal},
 * {@link Outcome#delay}, anything else retries). The other messages of the transaction keep their writes.
 *
 * <p>The connection is the library's: the handler must not commit, roll back, close it or change its auto-commit;
 * each is refused with an {@link java.sql.SQLException} carrying SQL0157, which fails the message unless the handler
 * catches it. Savepoints of the handler's own work as usual. When the range's lease was lost, or the handler outlived its
 * timeout and grace, the whole transaction rolls back, writes included, and the messages run again. Effects
 * outside this database (a call to another service, a file) are still at least once.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface TransactionalHandler<T> {
    void handle(T message, Connection connection) throws Exception;
}
