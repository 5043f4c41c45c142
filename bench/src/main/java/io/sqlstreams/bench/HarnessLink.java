package io.sqlstreams.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;

import com.zaxxer.hikari.HikariConfig;

/**
 * A child JVM's end of its {@link ConsumerProcess}: commands come in as lines on stdin, reports go out as lines on
 * stdout. The lines every child shares are named here; a child adds its own.
 */
final class HarnessLink {
    /** Reported once the child is ready for work ({@code ready <what>}). */
    static final String READY = "ready";
    /** Reported when a session stopped on its own ({@code session-failed <failure>}). */
    static final String SESSION_FAILED = "session-failed";
    /** The child's last report before it exits gracefully ({@code stopped <counters>}). */
    static final String STOPPED = "stopped";
    /** The command asking for a graceful stop. */
    static final String STOP = "stop";
    private static final Duration LIFETIME = Duration.ofHours(6);
    private static final PrintStream OUT = System.out;

    private HarnessLink() {
    }

    /**
     * Hands every line of stdin, trimmed, to {@code commands} on a thread of its own. End of input means the harness
     * is gone, and the process halts; a lifetime limit halts it too, should the harness hang.
     */
    static void listen(Consumer<String> commands) {
        Thread watcher = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    commands.accept(line.trim());
                }
            } catch (IOException gone) {
                // the same as end of input
            }
            Runtime.getRuntime().halt(3);
        }, "harness-watcher");
        watcher.setDaemon(true);
        watcher.start();
        Thread limit = new Thread(() -> {
            try {
                Thread.sleep(LIFETIME.toMillis());
            } catch (InterruptedException ignored) {
                // halt anyway
            }
            Runtime.getRuntime().halt(4);
        }, "lifetime-limit");
        limit.setDaemon(true);
        limit.start();
    }

    static synchronized void report(String line) {
        OUT.println(line);
        OUT.flush();
    }

    /**
     * A pool whose connections carry {@code applicationName}, so the harness can tell them apart on the server. It
     * connects lazily: the server may be restarting as the child starts.
     */
    static HikariConfig pool(String url, String name, int size, String applicationName) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setInitializationFailTimeout(-1);
        // PostgreSQL's default, said outright: left to detect it, a lazy pool whose first connection breaks off (the
        // server restarting) keeps -1 and fails every later connection (HikariCP issue #1944)
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        config.addDataSourceProperty("ApplicationName", applicationName);
        return config;
    }
}
