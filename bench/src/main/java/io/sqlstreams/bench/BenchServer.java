package io.sqlstreams.bench;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * The PostgreSQL server a run measures, behind one HikariCP pool: the server at the given JDBC URL, or an embedded
 * PostgreSQL started here with {@code fsync} and {@code synchronous_commit} explicitly on (the embedded default
 * turns synchronous commit off). The embedded one can be restarted; a given one only through the command the
 * caller names.
 */
final class BenchServer implements AutoCloseable {
    /** Enough for two raw writers, a reader, the library's batching workers and its bookkeeping. */
    static final int POOL_SIZE = 24;
    /** pgjdbc's rewrite of a JDBC batch into multi-row INSERTs: the raw baseline's best plain-JDBC path. */
    static final Map<String, String> DRIVER_PROPERTIES = Map.of("reWriteBatchedInserts", "true");
    /** How long a restarted server may take to accept connections again. */
    static final Duration RESTART_TIMEOUT = Duration.ofSeconds(120);

    /** How this server is stopped and started again. */
    interface Restart {
        /** Stops the server and starts it again; returns once it has been told to start. */
        void run() throws IOException, InterruptedException;

        /** What {@link #run()} does, for the report. */
        String describe();
    }

    private final EmbeddedServer embedded;
    private final HikariDataSource pool;
    private final String jdbcUrl;
    private final String description;
    private final Optional<Restart> restart;

    private BenchServer(EmbeddedServer embedded, String jdbcUrl, String description, Optional<Restart> restart) {
        this.embedded = embedded;
        this.pool = pool(jdbcUrl);
        this.jdbcUrl = jdbcUrl;
        this.description = description;
        this.restart = restart;
    }

    static BenchServer start(Optional<String> jdbcUrl) throws IOException {
        return start(jdbcUrl, Optional.empty());
    }

    /**
     * @param jdbcUrl        the server to measure; empty starts an embedded one (which can always be restarted)
     * @param restartCommand for a given server: the shell command that restarts it; without one it is never
     *                       restarted
     */
    static BenchServer start(Optional<String> jdbcUrl, Optional<String> restartCommand) throws IOException {
        if (jdbcUrl.isPresent()) {
            String url = jdbcUrl.get();
            int query = url.indexOf('?');
            return new BenchServer(null, url, "PostgreSQL at " + (query < 0 ? url : url.substring(0, query)),
                    restartCommand.map(CommandRestart::new));
        }
        EmbeddedServer embedded = EmbeddedServer.start();
        try {
            return new BenchServer(embedded, embedded.jdbcUrl(), "embedded PostgreSQL on 127.0.0.1:"
                    + embedded.port(), Optional.of(embedded.restart()));
        } catch (RuntimeException e) {
            embedded.close();
            throw e;
        }
    }

    DataSource dataSource() {
        return pool;
    }

    /** The server's JDBC URL, for processes of their own (credentials included, never printed). */
    String jdbcUrl() {
        return jdbcUrl;
    }

    /** {@link #jdbcUrl()} pointed at {@code database} of the same server. */
    String jdbcUrlFor(String database) {
        return jdbcUrl.replaceFirst("(jdbc:postgresql://[^/]+/)[^?]*", "$1" + database);
    }

    /** Which server this is, without credentials. */
    String description() {
        return description;
    }

    /** How this server restarts; empty for a given server without a restart command. */
    Optional<Restart> restart() {
        return restart;
    }

    /**
     * Restarts the server and waits until the pool gets a working connection again.
     *
     * @return how long it took
     * @throws IllegalStateException when this server has no restart
     */
    Duration restartAndAwait() throws IOException, InterruptedException {
        Restart how = restart.orElseThrow(() -> new IllegalStateException(description + " has no restart"));
        long start = System.nanoTime();
        how.run();
        long deadline = start + RESTART_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection connection = pool.getConnection()) {
                if (connection.isValid(5)) {
                    return Duration.ofNanos(System.nanoTime() - start);
                }
            } catch (SQLException e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new IOException(description + " did not accept connections within " + RESTART_TIMEOUT
                + " of its restart" + (last == null ? "" : ": " + last.getMessage()), last);
    }

    @Override
    public void close() throws IOException {
        pool.close();
        if (embedded != null) {
            embedded.close();
        }
    }

    private static HikariDataSource pool(String url) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("bench");
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(POOL_SIZE);
        DRIVER_PROPERTIES.forEach(config::addDataSourceProperty);
        return new HikariDataSource(config);
    }
}
