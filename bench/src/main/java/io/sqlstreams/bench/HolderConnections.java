package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Connections of the chaos lab's fence holders, opened one by one rather than taken from the harness's pool (they
 * stay open for seconds to a minute), in the lab's database or another of the server. They carry an application
 * name of their own: the storms terminate the consumers' backends by theirs and leave these alone; a restart
 * still ends them.
 */
final class HolderConnections {
    static final String APPLICATION_NAME = "sqlstreams-chaos-fence-holder";
    private static final String CONNECT_TIMEOUT_SECONDS = "5";

    private final BenchServer server;

    HolderConnections(BenchServer server) {
        this.server = server;
    }

    /** A connection to the lab's database, in auto-commit. */
    Connection open() throws SQLException {
        return connect(server.jdbcUrl());
    }

    /** A connection to {@code database} of the same server, in auto-commit. */
    Connection openIn(String database) throws SQLException {
        return connect(server.jdbcUrlFor(database));
    }

    private static Connection connect(String url) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("ApplicationName", APPLICATION_NAME);
        properties.setProperty("connectTimeout", CONNECT_TIMEOUT_SECONDS);
        return DriverManager.getConnection(url, properties);
    }
}
