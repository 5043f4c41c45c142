package io.sqlstreams.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Transactions the host runs a handler in instead of the library's own JDBC one: the server's JTA transactions,
 * where the handler's writes (JPA, say) and the library's outcome row commit together through connections the
 * server enlists. A JTA transaction has no savepoints, so each message runs in one of its own.
 */
public interface HostTransactions {

    /**
     * Begins a transaction on the calling thread that the host rolls back by itself once {@code timeout} has passed.
     */
    HostTransaction begin(Duration timeout) throws Exception;

    /** One transaction bound to the thread that began it. */
    interface HostTransaction extends AutoCloseable {

        /** A connection of the library's data source, enlisted in this transaction; the caller closes it. */
        Connection connection() throws SQLException;

        void commit() throws Exception;

        /** Rolls back what did not commit and ends the transaction on the calling thread. */
        @Override
        void close() throws Exception;
    }
}
