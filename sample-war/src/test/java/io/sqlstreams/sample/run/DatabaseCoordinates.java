package io.sqlstreams.sample.run;

import java.util.Properties;

import org.postgresql.Driver;
import org.postgresql.PGProperty;

/**
 * The PostgreSQL the server's {@code jdbc/sqlstreams} data source connects to: the {@code pg.*} variables of the
 * shared {@code server.xml}. Database, user and password may be null: not given.
 */
public record DatabaseCoordinates(String host, int port, String database, String user, String password) {

    /**
     * The coordinates in a pgjdbc URL such as {@code jdbc:postgresql://db:5432/shop?user=app&password=secret}.
     * Only host, port, database, user and password reach the server's data source; other parameters are ignored.
     *
     * @throws IllegalArgumentException when it is not a PostgreSQL JDBC URL
     */
    public static DatabaseCoordinates fromJdbcUrl(String url) {
        Properties parsed = Driver.parseURL(url, null);
        if (parsed == null) {
            throw new IllegalArgumentException(
                    "not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database?user=…)");
        }
        String database = PGProperty.PG_DBNAME.getOrDefault(parsed);
        return new DatabaseCoordinates(PGProperty.PG_HOST.getOrDefault(parsed),
                Integer.parseInt(PGProperty.PG_PORT.getOrDefault(parsed)),
                database == null || database.isEmpty() ? null : database,
                PGProperty.USER.getOrDefault(parsed), PGProperty.PASSWORD.getOrDefault(parsed));
    }

    /** The coordinates as a URL without the password, to show. */
    public String displayUrl() {
        return "jdbc:postgresql://" + host + ":" + port + "/" + (database == null ? "" : database)
                + (user == null ? "" : "?user=" + user);
    }
}
