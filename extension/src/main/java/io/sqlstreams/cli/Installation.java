package io.sqlstreams.cli;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ManagerConfig;
import io.sqlstreams.RetryPolicy;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.engine.system.InstallationDdl;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * One installation schema on one PostgreSQL, as this run reaches it. Every call is tried once: an operator at a
 * prompt would rather rerun a command than wait out the library's retry curve. Destroy verbs are allowed: the
 * operator typed them. Every client it makes writes the library's log lines to the run's {@link StderrLogger}, so
 * every command logs in the one-line format of {@code manager run}. It owns the one client a one-shot command reads
 * through and closes it when the command ends ({@link InstallationCommand}), so the client's handler pool,
 * announcer and wake-up listener end with the command.
 */
final class Installation implements AutoCloseable {
    private static final RetryPolicy ONE_ATTEMPT = RetryPolicy.builder().maxRetries(1).build();

    private final PGSimpleDataSource dataSource;
    private final StderrLogger lines;
    private final ClientConfig config;
    private final ClientFactory clients;
    private SqlStreams client;

    Installation(PGSimpleDataSource dataSource, String schema, StderrLogger lines, ClientFactory clients) {
        this.dataSource = dataSource;
        this.lines = lines;
        this.clients = clients;
        this.config = ClientConfig.builder().schema(schema).retry(ONE_ATTEMPT).allowDestroy(true).logger(lines)
                .build();
    }

    /** Where the library's log lines of this run go. */
    StderrLogger lines() {
        return lines;
    }

    String schema() {
        return config.schema();
    }

    /**
     * The library's client, created on first use (it checks the schema name and that PostgreSQL answers) and closed
     * by {@link #close()}: callers do not close it.
     */
    SqlStreams client() {
        if (client == null) {
            client = clients.create(dataSource, config);
        }
        return client;
    }

    /** Closes the client {@link #client()} created, if any. */
    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
    }

    /** How the tool creates its one-shot client: {@link SqlStreams#create}; tests watch the clients it makes. */
    @FunctionalInterface
    interface ClientFactory {
        ClientFactory LIBRARY = SqlStreams::create;

        SqlStreams create(PGSimpleDataSource dataSource, ClientConfig config);
    }

    /**
     * A client for a command that runs until it is stopped: the library's own retry curve (a database outage is
     * waited out, not reported at once).
     */
    SqlStreams longRunningClient(ManagerConfig manager) {
        return SqlStreams.create(dataSource, ClientConfig.builder().schema(config.schema()).logger(lines)
                .manager(manager).build());
    }

    /**
     * Creates and checks the installation's tables, reads their DDL versions and brings its scopes up or down to a
     * version ({@code migrate …}).
     */
    InstallationDdl ddl() {
        return new InstallationDdl(dataSource, config);
    }
}
