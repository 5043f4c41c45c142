package io.sqlstreams.tck;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.SqlStreams;

/**
 * What every scenario shares: Arquillian, and the server under test with its PostgreSQL as the test JVM reaches
 * them. Scenarios are abstract; each server has a concrete subclass per scenario in its own package, which is
 * where server-specific expectations (thread names, for one) are answered.
 */
@ExtendWith(ArquillianExtension.class)
public abstract class TckScenario {
    /** The longest any expectation waits: a deployment's sessions start, messages travel, health follows. */
    protected static final Duration WAIT = Duration.ofSeconds(60);

    /** A client of the server's PostgreSQL working in {@code schema}, as an application outside the server. */
    protected static SqlStreams client(String schema) {
        return SqlStreams.create(server().database(), ClientConfig.builder().schema(schema).build());
    }

    /** Runs one statement of set-up SQL on the server's PostgreSQL. */
    protected static void execute(String sql) throws SQLException {
        try (Connection connection = server().database().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    protected static HealthEndpoint.Answer health(String kind) throws IOException, InterruptedException {
        return HealthEndpoint.get(server(), kind);
    }

    protected static ServerCoordinates server() {
        return ServerCoordinates.current();
    }
}
