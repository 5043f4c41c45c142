package io.sqlstreams.jakarta;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;

import javax.sql.DataSource;

import io.sqlstreams.engine.HostTransactions;

/**
 * What the runtime takes from the server, by JNDI name: the data source, the managed thread factory for claim
 * loops, the managed executors handlers run on, the caller's JTA transaction (whether there is one, and what runs
 * after it commits) and new JTA transactions for transactional observers. A test or a non-JNDI host replaces the
 * default bean with an alternative.
 */
public interface ContainerResources {

    /** @throws IllegalStateException naming what could not be found */
    DataSource dataSource(String jndiName);

    ThreadFactory threadFactory();

    /** @throws IllegalStateException naming what could not be found */
    ExecutorService executor(String jndiName);

    /** Whether the calling thread runs inside a JTA transaction. */
    boolean inTransaction();

    /** Runs {@code action} once the calling thread's JTA transaction has committed (never on a rollback). */
    void afterCommit(Runnable action);

    /**
     * Transactions of the server's transaction manager in which {@code dataSource}'s connections are enlisted.
     *
     * @throws IllegalStateException naming what could not be found
     */
    HostTransactions transactions(DataSource dataSource);
}
