package io.sqlstreams.engine.consume;

import java.sql.Connection;

import io.sqlstreams.MessageHandler;
import io.sqlstreams.engine.HostTransactions;

/**
 * How a retried message runs a handler that writes in the host's transactions: in one of its own, where its success
 * is recorded too, so the message's writes and its resolution commit together. A failure rolls the transaction back
 * before the exception path records it. The host rolls back by itself a transaction that outlives the run's timeout
 * and grace, so an abandoned run has nothing to abort here.
 */
final class EnlistedRetries<T> implements HandlerRunner.HandlerBody<T> {
    private final MessageHandler<T> handler;
    private final HostTransactions transactions;
    private final LeaseBudget budget;

    EnlistedRetries(SessionHandler.Enlisted<T> handler, LeaseBudget budget) {
        this.handler = handler.handler();
        this.transactions = handler.transactions();
        this.budget = budget;
    }

    @Override
    public void run(Delivery delivery, T payload) throws Exception {
        try (HostTransactions.HostTransaction transaction = transactions.begin(budget.handlerBound(delivery))) {
            handler.handle(payload);
            boolean recorded;
            try (Connection connection = transaction.connection()) {
                recorded = delivery.records().succeeded(connection);
            }
            if (!recorded) {
                throw RetryTransactions.leaseLostBeforeSuccess();
            }
            transaction.commit();
        }
    }
}
