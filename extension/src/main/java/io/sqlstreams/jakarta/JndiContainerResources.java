package io.sqlstreams.jakarta;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.UserTransaction;

import io.sqlstreams.engine.HostTransactions;

/**
 * The server's resources by JNDI: {@code java:comp/DefaultManagedThreadFactory} for the claim loops, the
 * transaction synchronization registry for the transaction check and the after-commit actions, the user
 * transaction for the transactions of transactional observers.
 */
@ApplicationScoped
public class JndiContainerResources implements ContainerResources {
    static final String THREAD_FACTORY = "java:comp/DefaultManagedThreadFactory";
    static final String TRANSACTIONS = "java:comp/TransactionSynchronizationRegistry";
    static final String USER_TRANSACTION = "java:comp/UserTransaction";

    @Override
    public DataSource dataSource(String jndiName) {
        return lookup(jndiName, DataSource.class, "data source");
    }

    @Override
    public ThreadFactory threadFactory() {
        return lookup(THREAD_FACTORY, ThreadFactory.class, "managed thread factory");
    }

    @Override
    public ExecutorService executor(String jndiName) {
        return lookup(jndiName, ExecutorService.class, "managed executor");
    }

    @Override
    public boolean inTransaction() {
        return transactions().getTransactionKey() != null;
    }

    @Override
    public void afterCommit(Runnable action) {
        transactions().registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    action.run();
                }
            }
        });
    }

    @Override
    public HostTransactions transactions(DataSource dataSource) {
        return new JtaTransactions(lookup(USER_TRANSACTION, UserTransaction.class, "user transaction"), dataSource);
    }

    private static TransactionSynchronizationRegistry transactions() {
        return lookup(TRANSACTIONS, TransactionSynchronizationRegistry.class, "transaction synchronization registry");
    }

    private static <R> R lookup(String name, Class<R> type, String what) {
        Object found;
        try {
            found = new InitialContext().lookup(name);
        } catch (NamingException missing) {
            throw new IllegalStateException("no " + what + " is bound at JNDI name " + name + ": " + missing, missing);
        }
        if (!type.isInstance(found)) {
            throw new IllegalStateException("JNDI name " + name + " holds a " + found.getClass().getName()
                    + ", not a " + what);
        }
        return type.cast(found);
    }
}
