package io.sqlstreams;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Writes messages to one stream. Every verb returns after the message is durable (or, inside a caller's
 * transaction, after it is written there). Safe for concurrent use; {@link #close()} stops its batching
 * workers after the pending batches are committed.
 *
 * @param <T> the payload type
 */
public interface Producer<T> extends AutoCloseable {

    /**
     * Produces one message through automatic batching: concurrent calls share a transaction. A call with an
     * idempotency key runs in a transaction of its own.
     */
    ProduceResult produce(T message, ProduceOptions options);

    default ProduceResult produce(T message) {
        return produce(message, ProduceOptions.none());
    }

    /**
     * Produces every item in one transaction: all or nothing, results in argument order. Items are written in
     * message-key order, so batches over the same compacted keys cannot deadlock each other.
     */
    List<ProduceResult> produceBatch(List<ProduceItem<T>> items);

    /**
     * Produces inside the caller's transaction on {@code connection} (auto-commit off): the message commits or
     * rolls back with the caller's own work. Put your own statements first: until it commits, an open
     * transaction that has produced holds back every group on the stream.
     *
     * @throws SqlStreamsException SQL0132 when {@code connection} is in auto-commit mode
     */
    ProduceResult produce(Connection connection, T message, ProduceOptions options);

    /**
     * Runs {@code work} in a new transaction, produces what it returns in the same transaction, and commits:
     * the business write and the message land together. An exception from {@code work} rolls back both. It
     * is not retried: a transient failure is reported, and the caller decides.
     */
    ProduceResult produceInTransaction(TransactionalWork<T> work, ProduceOptions options);

    /** Stops the batching workers once the batches already handed to them are committed. */
    @Override
    void close();

    /**
     * The business part of {@link #produceInTransaction}: writes through the connection and returns the payload
     * to produce. A {@link java.sql.SQLException} it throws surfaces as SQL0110 (transient) or SQL0111.
     */
    @FunctionalInterface
    interface TransactionalWork<T> {
        T run(Connection connection) throws SQLException;
    }
}
