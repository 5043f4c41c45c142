package io.sqlstreams.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.sqlstreams.ManagerConfig;
import io.sqlstreams.MetricFilter;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineThreads;
import io.sqlstreams.engine.codec.DurationText;
import io.sqlstreams.engine.metrics.prometheus.PrometheusEndpoint;
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
            + " wait to take over. Logs at Info and above go to stderr; stop releases the claim. With"
            + " --metrics-address it also serves the retained metrics to Prometheus until it stops.")
    static final class Run extends InstallationCommand {
        /** How long a shutdown signal waits for the claim's release before the process exits anyway. */
        private static final long RELEASE_WAIT_SECONDS = 30;

        @Option(names = "--instance-ttl", paramLabel = "DURATION",
                description = "how long a claim lives without a heartbeat (renewed every half of it): a killed"
                        + " holder is replaced within it plus one poll (default 30s)")
        private String instanceTtl;

        @Option(names = MetricsAddress.OPTION, paramLabel = "HOST:PORT",
                description = "also serve the retained metrics to Prometheus at http://HOST:PORT/metrics, such as"
                        + " 127.0.0.1:9464 (:PORT listens on every interface)")
        private String metricsAddress;

        @Override
        int run(Output output, Installation installation) {
            if (output.json()) {
                throw usageError("manager run prints log lines until it is stopped, not a document: drop --output"
                        + " json");
            }
            ManagerConfig manager = new ManagerConfig(instanceTtl == null ? null
                    : DurationText.parse("--instance-ttl", instanceTtl), null, null, null);
            InetSocketAddress address = metricsAddress == null ? null : MetricsAddress.parse(metricsAddress);
            StderrLogger lines = installation.lines();
            CountDownLatch released = new CountDownLatch(1);
            try (SqlStreams client = installation.longRunningClient(manager);
                 SqlStreams reader = address == null ? null : installation.client();
                 PrometheusEndpoint endpoint = address == null ? null : listen(address, reader, lines)) {
                Thread onSignal = EngineThreads.standalone().thread("sqlstreams-manager-stop", () -> {
                    client.manager().stop();
                    awaitQuietly(released);
                });
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

        /**
         * The endpoint, reading through {@code reader}, a client that tries each read once: a scrape during an
         * outage answers at once with {@code read_success} 0 instead of waiting out the retry curve.
         */
        private PrometheusEndpoint listen(InetSocketAddress address, SqlStreams reader, StderrLogger lines) {
            try {
                return PrometheusEndpoint.start(address, () -> reader.system().metrics().latest(MetricFilter.all()),
                        new Diagnostics(lines, Clock.systemUTC()));
            } catch (IOException unbound) {
                throw MetricsAddress.invalid(metricsAddress, "cannot listen there: " + unbound.getMessage());
            }
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
