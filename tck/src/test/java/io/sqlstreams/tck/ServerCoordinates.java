package io.sqlstreams.tck;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

import javax.sql.DataSource;

import org.postgresql.ds.PGSimpleDataSource;

/**
 * Where the server under test listens and which PostgreSQL it uses, read from the {@code bootstrap.properties}
 * the server was created with (named by the system property {@value #PROPERTY}), so the test JVM and the server
 * cannot disagree.
 */
public record ServerCoordinates(int httpPort, String pgHost, int pgPort, String pgDatabase, String pgUser,
                                String pgPassword) {
    static final String PROPERTY = "sqlstreams.tck.bootstrap";

    /** This run's coordinates; empty where no server is under test (outside failsafe). */
    static Optional<ServerCoordinates> configured() {
        String file = System.getProperty(PROPERTY);
        return file == null ? Optional.empty() : Optional.of(read(Path.of(file)));
    }

    public static ServerCoordinates current() {
        return configured().orElseThrow(() -> new IllegalStateException("no server under test: the system property "
                + PROPERTY + " names its bootstrap.properties (set by failsafe in the tck module)"));
    }

    private static ServerCoordinates read(Path file) {
        Properties bootstrap = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            bootstrap.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the server's " + file, e);
        }
        return new ServerCoordinates(Integer.parseInt(required(bootstrap, "http.port", file)),
                required(bootstrap, "pg.host", file), Integer.parseInt(required(bootstrap, "pg.port", file)),
                required(bootstrap, "pg.database", file), required(bootstrap, "pg.user", file),
                required(bootstrap, "pg.password", file));
    }

    private static String required(Properties bootstrap, String key, Path file) {
        String value = bootstrap.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(file + " does not set " + key);
        }
        return value.trim();
    }

    /** An address on the server's HTTP endpoint, e.g. {@code /health/ready}. */
    public URI http(String path) {
        return URI.create("http://127.0.0.1:" + httpPort + path);
    }

    /** The server's PostgreSQL, as the test JVM reaches it. */
    public DataSource database() {
        return database(pgDatabase);
    }

    /** Another database of the server's PostgreSQL cluster. */
    public DataSource database(String name) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setServerNames(new String[] {pgHost});
        dataSource.setPortNumbers(new int[] {pgPort});
        dataSource.setDatabaseName(name);
        dataSource.setUser(pgUser);
        dataSource.setPassword(pgPassword);
        return dataSource;
    }
}
