package io.sqlstreams;

import java.sql.Connection;
import java.util.List;

/**
 * Handles the claimed messages of a range together, inside the library's transaction, as
 * {@link TransactionalHandler} does one: what the handler writes through {@code connection} and the outcome of every
 * item commit together, in one commit. Items come in id order; a message whose key is busy, or whose ordered key
 * failed earlier in the range, is not among them.
 *
 * <p>Returning normally succeeds every item the handler did not {@link BatchItem#fail fail}. When an item failed or
 * the handler threw, the whole batch's writes are rolled back and its items run again one at a time, each in a list
 * of one under a savepoint of its own, so that a failure rolls back only that item's writes and is recorded against
 * it alone. Retried messages always come one at a time. A batch call runs under the longest timeout of its items.
 *
 * <p>A call handles no single delivery: inside it {@link MessageMeta#current()} throws {@link IllegalStateException}
 * and {@link MessageMeta#find()} is empty, in a list of one as in a batch. Each item's delivery is its
 * {@link BatchItem#meta()}.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface BatchHandler<T> {
    void handle(List<BatchItem<T>> items, Connection connection) throws Exception;
}
