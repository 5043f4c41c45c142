package io.sqlstreams.jakarta;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

import javax.sql.DataSource;

import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineThreads;
import io.sqlstreams.engine.HostTransactions;
import io.sqlstreams.jakarta.config.GlobalSettings;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

/**
 * Stands in for the server's JNDI resources: the test database (with {@link SimulatedTransactions}) bound at the
 * default name only, and plain JDK threads.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class TestResources implements ContainerResources {
    static volatile DataSource dataSource;
    static final String HANDLER_THREAD_PREFIX = "test-managed-executor-";
    private static final ExecutorService HANDLERS =
            Executors.newCachedThreadPool(EngineThreads.daemons(HANDLER_THREAD_PREFIX));

    @Override
    public DataSource dataSource(String jndiName) {
        if (!jndiName.equals(GlobalSettings.DEFAULT_DATASOURCE_JNDI_NAME)) {
            throw new IllegalStateException("no data source is bound at JNDI name " + jndiName);
        }
        return SimulatedTransactions.enlisting(dataSource);
    }

    @Override
    public ThreadFactory threadFactory() {
        return EngineThreads.daemons("test-managed-thread-");
    }

    @Override
    public ExecutorService executor(String jndiName) {
        return HANDLERS;
    }

    @Override
    public boolean inTransaction() {
        return SimulatedTransactions.active();
    }

    @Override
    public void afterCommit(Runnable action) {
        SimulatedTransactions.afterCommit(action);
    }

    @Override
    public HostTransactions transactions(DataSource enlisting) {
        return SimulatedTransactions.host(dataSource, enlisting);
    }
}
