package io.sqlstreams.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * Starts the PostgreSQL the server under test was configured for, once per test JVM and before any test class,
 * so before Arquillian starts the server; stops it after the last one, once the server has stopped. Registered in
 * {@code META-INF/services}, so it runs in the test JVM only, never in a deployment.
 */
public final class EmbeddedPostgresSession implements LauncherSessionListener {
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(90);

    private EmbeddedPostgres postgres;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        ServerCoordinates.configured().ifPresent(this::start);
    }

    private void start(ServerCoordinates server) {
        try {
            // the embedded server's database and role are both "postgres", which bootstrap.properties names
            // TCP only: a Unix socket named after the fixed port would collide with another run on this machine,
            // even one in another network namespace
            // the first start on a machine also unpacks the binaries and runs initdb: give it time on a busy one
            postgres = EmbeddedPostgres.builder().setPort(server.pgPort()).setPGStartupWait(STARTUP_WAIT)
                    .setServerConfig("listen_addresses", server.pgHost())
                    .setServerConfig("unix_socket_directories", "").start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL on " + server.pgHost() + ":"
                    + server.pgPort(), e);
        }
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (postgres == null) {
            return;
        }
        try {
            postgres.close();
        } catch (IOException e) {
            System.err.println("the embedded PostgreSQL did not stop cleanly: " + e);
        } finally {
            postgres = null;
        }
    }
}
