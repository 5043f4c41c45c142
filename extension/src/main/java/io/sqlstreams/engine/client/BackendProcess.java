package io.sqlstreams.engine.client;

import java.sql.Connection;
import java.sql.SQLException;

import io.sqlstreams.engine.query.WakeupQueries;
import io.sqlstreams.engine.sql.Sql;

/**
 * Which PostgreSQL server process serves a connection the host opened itself, asked with the catalogue's
 * {@code backend_pid} statement. Internal: the Jakarta integration's check that two connections of one JTA
 * transaction share a backend is its one user.
 */
public final class BackendProcess {
    private final WakeupQueries queries;

    /** For the installation in {@code schema}; SQL0109 when the name is not a valid schema name. */
    public BackendProcess(String schema) {
        this.queries = new WakeupQueries(new Sql(schema));
    }

    public int pid(Connection connection) throws SQLException {
        return queries.backendPid(connection);
    }
}
