package io.sqlstreams.sample.run;

import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * One run of the sample: a database, then the Liberty server with the WAR on it. {@link #close()} stops them in
 * the reverse order, also from a shutdown hook while {@link #start} runs.
 */
public final class SampleRun implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

    private final ServerLayout layout;
    private final Redirect serverOutput;
    private boolean closed;
    private SampleDatabase database;
    private LibertyProcess server;

    /** @param serverOutput where Liberty's console output goes */
    public SampleRun(ServerLayout layout, Redirect serverOutput) {
        this.layout = layout;
        this.serverOutput = serverOutput;
    }

    /** Starts the database from {@code databases}, then the server, and returns once the sample is ready. */
    public void start(Supplier<SampleDatabase> databases) throws InterruptedException {
        LibertyProcess started;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("this run was closed");
            }
            database = databases.get();
            SampleServerConfig.write(layout, database.coordinates());
            started = server = LibertyProcess.start(layout, serverOutput);
        }
        started.awaitReady(baseUri(), READY_TIMEOUT);
    }

    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + layout.httpPort() + "/");
    }

    public ServerLayout layout() {
        return layout;
    }

    public synchronized SampleDatabase database() {
        return database;
    }

    /** Blocks while the server runs; its exit code. */
    public int awaitExit() throws InterruptedException {
        LibertyProcess started;
        synchronized (this) {
            started = server;
        }
        return started.awaitExit();
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            if (server != null) {
                server.stop();
            }
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }
}
