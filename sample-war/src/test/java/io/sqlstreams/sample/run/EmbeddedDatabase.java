package io.sqlstreams.sample.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/** A throw-away PostgreSQL on 127.0.0.1 and a free port, its data deleted when it stops. */
public final class EmbeddedDatabase implements SampleDatabase {
    private static final String HOST = "127.0.0.1";

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    public static EmbeddedDatabase start() {
        try {
            // closed by the launcher after the server has stopped, not by a shutdown hook of its own that could
            // run first
            // the first start also unpacks the binaries and runs initdb, slow on a busy machine
            return new EmbeddedDatabase(EmbeddedPostgres.builder().setServerConfig("listen_addresses", HOST)
                    .setPGStartupWait(Duration.ofSeconds(90)).setRegisterShutdownHook(false).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
        }
    }

    @Override
    public DatabaseCoordinates coordinates() {
        // the embedded server's superuser and database are both "postgres"; it trusts local connections, so no
        // password
        return new DatabaseCoordinates(HOST, postgres.getPort(), "postgres", "postgres", null);
    }

    @Override
    public String describe() {
        return "embedded PostgreSQL on " + HOST + ":" + postgres.getPort() + " (deleted when you stop)";
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException | RuntimeException e) {
            System.err.println("the embedded PostgreSQL did not stop cleanly: " + e);
        }
    }
}
