package io.sqlstreams.sample.run;

import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * One run of the sample: a database, then a server with the WAR on it. {@link #close()} stops them in the reverse
 * order, also from a shutdown hook while {@link #start} runs.
 */
public final class SampleRun implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

    private final String serverName;
    private final Path serverLog;
    private final BiFunction<DatabaseCoordinates, Redirect, SampleServer> servers;
    private final Redirect serverOutput;
    private boolean closed;
    private SampleDatabase database;
    private SampleServer server;

    /**
     * @param serverName   the server's name for a human
     * @param serverLog    where the server logs
     * @param servers      starts the server on a database, its console output going to the given place
     * @param serverOutput where the server's console output goes
     */
    private SampleRun(String serverName, Path serverLog, BiFunction<DatabaseCoordinates, Redirect, SampleServer> servers,
                      Redirect serverOutput) {
        this.serverName = serverName;
        this.serverLog = serverLog;
        this.servers = servers;
        this.serverOutput = serverOutput;
    }

    /** The sample on Open Liberty. */
    static SampleRun onLiberty(Redirect serverOutput) {
        ServerLayout layout = ServerLayout.load();
        return new SampleRun(LibertyProcess.NAME, layout.messagesLog(),
                (database, output) -> LibertyProcess.start(layout, database, output), serverOutput);
    }

    /** The sample on Payara Micro. */
    static SampleRun onPayara(Redirect serverOutput) {
        PayaraLayout layout = PayaraLayout.load();
        return new SampleRun(PayaraMicroProcess.NAME, PayaraMicroProcess.logOf(layout),
                (database, output) -> PayaraMicroProcess.start(layout, database, output), serverOutput);
    }

    /** One line for the user while the run starts: what starts, and where the server logs. */
    String describeStart() {
        return "Starting the payments sample on " + serverName + " (its log: " + serverLog + ") …";
    }

    /** Starts the database from {@code databases}, then the server, and returns once the sample is ready. */
    public void start(Supplier<SampleDatabase> databases) throws InterruptedException {
        SampleServer started;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("this run was closed");
            }
            database = databases.get();
            started = server = servers.apply(database.coordinates(), serverOutput);
        }
        ReadinessProbe.await(started, READY_TIMEOUT);
    }

    public synchronized SampleServer server() {
        return server;
    }

    public URI baseUri() {
        return server().baseUri();
    }

    public synchronized SampleDatabase database() {
        return database;
    }

    /** Blocks while the server runs; its exit code. */
    public int awaitExit() throws InterruptedException {
        return server().awaitExit();
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
