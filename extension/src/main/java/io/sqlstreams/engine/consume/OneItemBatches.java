package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.util.List;

import io.sqlstreams.BatchHandler;
import io.sqlstreams.BatchItem;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.TransactionalHandler;

/**
 * A batch handler called for one message at a time, in a list of one: how a batch that failed runs again, and how a
 * retried message runs. An item the handler failed throws what it was failed with. Every call of a batch handler,
 * of one item or a whole batch, goes through {@link #call}.
 */
final class OneItemBatches {
    private OneItemBatches() {
    }

    static <T> TransactionalHandler<T> of(BatchHandler<T> batches) {
        return (T message, Connection connection) -> {
            Item<T> item = new Item<>(message, MessageMeta.current());
            call(batches, List.<BatchItem<T>>of(item), connection);
            item.throwIfFailed();
        };
    }

    /** Calls {@code batches} with {@code items}; inside, no delivery is current ({@link MessageMeta#callForBatch}). */
    static <T> void call(BatchHandler<T> batches, List<BatchItem<T>> items, Connection connection) throws Exception {
        MessageMeta.callForBatch(() -> {
            batches.handle(items, connection);
            return null;
        });
    }

    /** One message of a batch and what the handler failed it with, if anything. */
    static final class Item<T> implements BatchItem<T> {
        private final T message;
        private final MessageMeta meta;
        private volatile Throwable failure;

        Item(T message, MessageMeta meta) {
            this.message = message;
            this.meta = meta;
        }

        @Override
        public T message() {
            return message;
        }

        @Override
        public MessageMeta meta() {
            return meta;
        }

        @Override
        public void fail(Throwable cause) {
            failure = cause == null ? new IllegalArgumentException("failed without a cause") : cause;
        }

        Throwable failure() {
            return failure;
        }

        void throwIfFailed() throws Exception {
            Throwable failed = failure;
            if (failed instanceof Exception exception) {
                throw exception;
            }
            if (failed instanceof Error error) {
                throw error;
            }
            if (failed != null) {
                throw new IllegalStateException(failed);
            }
        }
    }
}
