package io.sqlstreams.cli;

import java.lang.System.Logger.Level;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.sqlstreams.ManagerConfig;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.engine.codec.DurationText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sqlstreams manager …}: the system manager, run by this process. */
@Command(name = "manager", description = "Run the installation's system manager.",
        subcommands = ManagerCommands.Run.class)
final class ManagerCommands {
    private ManagerCommands() {
    }

    @Command(name = "run", description = "Take part in the system manager until SIGINT or SIGTERM: one process of the"
            + " installation holds it and runs every stream's janitor and vacuum and the system's workers; the others"
            + " wait to take over. Logs at Info and above go to stderr; stop releases the claim.")
    static final class Run extends InstallationCommand {
        /** How long a shutdown signal waits for the claim's release before the process exits anyway. */
        private static final long RELEASE_WAIT_SECONDS = 30;

        @Option(names = "--instance-ttl", paramLabel = "DURATION",
                description = "how long a claim lives without a heartbeat (renewed every half of it): a killed"
                        + " holder is replaced within it plus one poll (default 30s)")
        private String instanceTtl;

        @Override
        int run(Output output, Installation installation) {
            if (output.json()) {
                throw usageError("manager run prints log lines until it is stopped, not a document: drop --output"
                        + " json");
            }
            CountDownLatch released = new CountDownLatch(1);
            ManagerConfig manager = new ManagerConfig(instanceTtl == null ? null
                    : DurationText.parse("--instance-ttl", instanceTtl), null, null, null);
            try (SqlStreams client = installation.longRunningClient(new StderrLogger(err(), Level.INFO), manager)) {
                Thread onSignal = new Thread(() -> {
                    client.manager().stop();
                    awaitQuietly(released);
                }, "sqlstreams-manager-stop");
                Runtime.getRuntime().addShutdownHook(onSignal);
                try {
                    client.manager().run();
                } finally {
                    removeQuietly(onSignal);
                }
            } finally {
                released.countDown();
            }
            return ExitCodes.OK;
        }

        private static void awaitQuietly(CountDownLatch released) {
            try {
                released.await(RELEASE_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        private static void removeQuietly(Thread hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it waits for the release below
            }
        }
    }
}
