package io.sqlstreams.jakarta;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import javax.sql.DataSource;

import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;

import io.sqlstreams.engine.HostTransactions;

/**
 * The server's JTA transactions for a transactional observer: begun on the handler's thread with the message's
 * timeout and grace as the transaction timeout, so the transaction manager rolls back one that outlives them. A
 * connection of the data source taken inside one is enlisted by the server, as the application's JPA writes are.
 */
final class JtaTransactions implements HostTransactions {
    private final UserTransaction transactions;
    private final DataSource dataSource;

    JtaTransactions(UserTransaction transactions, DataSource dataSource) {
        this.transactions = transactions;
        this.dataSource = dataSource;
    }

    @Override
    public HostTransaction begin(Duration timeout) throws Exception {
        transactions.setTransactionTimeout(seconds(timeout));
        try {
            transactions.begin();
        } finally {
            transactions.setTransactionTimeout(0);
        }
        return new Begun();
    }

    /** Whole seconds, rounded up: a JTA timeout has no finer unit. */
    private static int seconds(Duration timeout) {
        long seconds = (timeout.toMillis() + 999) / 1000;
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, seconds));
    }

    /** The transaction begun on the calling thread. */
    private final class Begun implements HostTransaction {
        private boolean ended;

        @Override
        public Connection connection() throws SQLException {
            return dataSource.getConnection();
        }

        @Override
        public void commit() throws Exception {
            ended = true;
            transactions.commit();
        }

        @Override
        public void close() throws SystemException {
            if (!ended) {
                ended = true;
                if (transactions.getStatus() != Status.STATUS_NO_TRANSACTION) {
                    transactions.rollback();
                }
            }
        }
    }
}
