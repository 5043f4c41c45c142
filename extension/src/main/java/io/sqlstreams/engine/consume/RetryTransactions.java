package io.sqlstreams.engine.consume;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.DataSource;

import io.sqlstreams.TransactionalHandler;

/**
 * How a retried message runs a transactional handler: in a transaction of its own, where its success is recorded
 * too, so the message's writes and its resolution commit together. A failure rolls the transaction back before the
 * exception path records it; a run abandoned after its timeout and grace has its connection aborted, which rolls it
 * back. When the run's lease was lost meanwhile, nothing commits and the failure is recorded against the lost lease,
 * which writes nothing either.
 */
final class RetryTransactions<T> implements HandlerRunner.HandlerBody<T> {
    private final DataSource dataSource;
    private final TransactionalHandler<T> handler;
    private final Map<Delivery, HandlerTransaction> open = new ConcurrentHashMap<>();

    RetryTransactions(DataSource dataSource, TransactionalHandler<T> handler) {
        this.dataSource = dataSource;
        this.handler = handler;
    }

    @Override
    public void run(Delivery delivery, T payload) throws Exception {
        try (HandlerTransaction transaction = HandlerTransaction.begin(dataSource)) {
            open.put(delivery, transaction);
            try {
                MessageSavepoint.call(handler, payload, transaction);
                if (!delivery.records().succeeded(transaction.connection())) {
                    throw leaseLostBeforeSuccess();
                }
                transaction.commit();
            } catch (Exception | Error failure) {
                transaction.rollBackAfter(failure);
                throw failure;
            } finally {
                open.remove(delivery);
            }
        }
    }

    /** Why a retried run that returned still fails: its lease was lost before its success could be recorded. */
    static IllegalStateException leaseLostBeforeSuccess() {
        return new IllegalStateException("the lease of the retried run was lost before its success could be recorded;"
                + " its writes were rolled back");
    }

    @Override
    public void abandoned(Delivery delivery) {
        HandlerTransaction transaction = open.remove(delivery);
        if (transaction != null) {
            transaction.abort();
        }
    }
}
