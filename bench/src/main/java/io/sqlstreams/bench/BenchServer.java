package io.sqlstreams.bench;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The PostgreSQL server a run measures, behind one HikariCP pool: the server at the given JDBC URL, or an embedded
 * PostgreSQL started here with {@code fsync} and {@code synchronous_commit} explicitly on (the embedded default
 * turns synchronous commit off).
 */
final class BenchServer implements AutoCloseable {
    /** Enough for two raw writers, a reader, the library's batching workers and its bookkeeping. */
    static final int POOL_SIZE = 24;
    /** pgjdbc's rewrite of a JDBC batch into multi-row INSERTs: the raw baseline's best plain-JDBC path. */
    static final Map<String, String> DRIVER_PROPERTIES = Map.of("reWriteBatchedInserts", "true");

    private final EmbeddedPostgres embedded;
    private final HikariDataSource pool;
    private final String description;

    private BenchServer(EmbeddedPostgres embedded, HikariDataSource pool, String description) {
        this.embedded = embedded;
        this.pool = pool;
        this.description = description;
    }

    static BenchServer start(Optional<String> jdbcUrl) throws IOException {
        if (jdbcUrl.isPresent()) {
            String url = jdbcUrl.get();
            int query = url.indexOf('?');
            return new BenchServer(null, pool(url), "PostgreSQL at " + (query < 0 ? url : url.substring(0, query)));
        }
        EmbeddedPostgres embedded = EmbeddedPostgres.builder()
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .start();
        try {
            return new BenchServer(embedded, pool(embedded.getJdbcUrl("postgres", "postgres")),
                    "embedded PostgreSQL on 127.0.0.1:" + embedded.getPort());
        } catch (RuntimeException e) {
            embedded.close();
            throw e;
        }
    }

    DataSource dataSource() {
        return pool;
    }

    /** Which server this is, without credentials. */
    String description() {
        return description;
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
