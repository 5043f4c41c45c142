package io.sqlstreams.tck;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Makes the server's database refuse everyone for a while, as a PostgreSQL restart or a network cut does: new
 * connections are refused and every open one is closed. Driven from another database of the cluster, which stays
 * reachable, so the outage can always be ended.
 */
final class DatabaseOutage implements AutoCloseable {
    private static final String MAINTENANCE_DATABASE = "template1";

    private final ServerCoordinates server;

    private DatabaseOutage(ServerCoordinates server) {
        this.server = server;
    }

    static DatabaseOutage begin(ServerCoordinates server) throws SQLException {
        DatabaseOutage outage = new DatabaseOutage(server);
        outage.run("ALTER DATABASE " + server.pgDatabase() + " ALLOW_CONNECTIONS false");
        outage.run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + server.pgDatabase()
                + "' AND pid <> pg_backend_pid()");
        return outage;
    }

    /** Lets connections in again. */
    @Override
    public void close() throws SQLException {
        run("ALTER DATABASE " + server.pgDatabase() + " ALLOW_CONNECTIONS true");
    }

    private void run(String sql) throws SQLException {
        try (Connection connection = server.database(MAINTENANCE_DATABASE).getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
