package io.sqlstreams.sample.run;

import java.sql.SQLException;
import java.util.Properties;

import org.postgresql.Driver;

/** A PostgreSQL of the user's, named by {@code SQLSTREAMS_JDBC_URL}: used as it is and never stopped. */
public record ExternalDatabase(DatabaseCoordinates coordinates) implements SampleDatabase {

    /**
     * The database at {@code jdbcUrl}, once a connection to it succeeded: a wrong URL fails here rather than as a
     * server that never gets ready.
     */
    public static ExternalDatabase at(String jdbcUrl) {
        DatabaseCoordinates coordinates = DatabaseCoordinates.fromJdbcUrl(jdbcUrl);
        try {
            new Driver().connect(jdbcUrl, new Properties()).close();
            return new ExternalDatabase(coordinates);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + coordinates.displayUrl() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return "PostgreSQL at " + coordinates.displayUrl() + " (SQLSTREAMS_JDBC_URL); the sample's tables and the "
                + "sqlstreams schema stay there after you stop";
    }

    @Override
    public void close() {
    }
}
