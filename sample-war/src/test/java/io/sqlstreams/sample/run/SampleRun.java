package io.sqlstreams.sample.run;

import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One run of the sample: a database, then a server with the WAR on it, and with {@link #traceTo} a
 * {@link TraceReceiver} first. {@link #close()} stops them in the reverse order, also from a shutdown hook while
 * {@link #start} runs.
 */
public final class SampleRun implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

    /** Starts a server on a database, with MicroProfile Config for the sample, its console output going there. */
    private interface ServerStart {
        SampleServer start(DatabaseCoordinates database, Map<String, String> applicationConfig, Redirect output);
    }

    private final String serverName;
    private final Path serverLog;
    private final ServerStart servers;
    private final Redirect serverOutput;
    private boolean closed;
    private Consumer<SampleSpan> spans;
    private TraceReceiver traces;
    private SampleDatabase database;
    private SampleServer server;

    /**
     * @param serverName   the server's name for a human
     * @param serverLog    where the server logs
     * @param servers      starts the server on a database, with MicroProfile Config for the sample, its console
     *                     output going to the given place
     * @param serverOutput where the server's console output goes
     */
    private SampleRun(String serverName, Path serverLog, ServerStart servers, Redirect serverOutput) {
        this.serverName = serverName;
        this.serverLog = serverLog;
        this.servers = servers;
        this.serverOutput = serverOutput;
    }

    /** The sample on Open Liberty. */
    static SampleRun onLiberty(Redirect serverOutput) {
        ServerLayout layout = ServerLayout.load();
        return new SampleRun(LibertyProcess.NAME, layout.messagesLog(),
                (database, config, output) -> LibertyProcess.start(layout, database, config, output), serverOutput);
    }

    /** The sample on Payara Micro. */
    static SampleRun onPayara(Redirect serverOutput) {
        PayaraLayout layout = PayaraLayout.load();
        return new SampleRun(PayaraMicroProcess.NAME, PayaraMicroProcess.logOf(layout),
                (database, config, output) -> PayaraMicroProcess.start(layout, database, config, output),
                serverOutput);
    }

    /** One line for the user while the run starts: what starts, and where the server logs. */
    String describeStart() {
        return "Starting the payments sample on " + serverName + " (its log: " + serverLog + ") …";
    }

    /**
     * Before {@link #start}: turns the sample's OpenTelemetry on, exporting its spans to a {@link TraceReceiver} of
     * this run, which hands each to {@code spans} as it arrives.
     */
    synchronized SampleRun traceTo(Consumer<SampleSpan> spans) {
        this.spans = spans;
        return this;
    }

    /**
     * Starts the trace receiver if asked, the database from {@code databases}, then the server, and returns once the
     * sample is ready.
     */
    public void start(Supplier<SampleDatabase> databases) throws InterruptedException {
        SampleServer started;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("this run was closed");
            }
            Map<String, String> applicationConfig = Map.of();
            if (spans != null) {
                traces = TraceReceiver.start(spans);
                applicationConfig = TraceExport.config(traces.endpoint());
            }
            database = databases.get();
            started = server = servers.start(database.coordinates(), applicationConfig, serverOutput);
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
            try {
                if (database != null) {
                    database.close();
                }
            } finally {
                if (traces != null) {
                    traces.close();
                }
            }
        }
    }
}
