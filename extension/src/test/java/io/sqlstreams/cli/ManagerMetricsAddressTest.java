package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/** {@code manager run --metrics-address}: the endpoint lives exactly as long as the manager run. */
@PostgresTest
class ManagerMetricsAddressTest {
    private static Map<String, String> environment;

    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void install(TestDatabase database) throws SQLException {
        try (SqlStreams client = SqlStreams.create(database.dataSource(),
                ClientConfig.builder().schema(database.schema()).build())) {
            client.system().register(SystemConfig.defaults());
        }
        environment = CliRun.environmentFor(database);
    }

    @Test
    void theEndpointServesWhileTheManagerRunsAndStopsWithIt() throws Exception {
        int port = freePort();
        Thread[] runner = new Thread[1];
        CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> {
            runner[0] = Thread.currentThread();
            return CliRun.run(environment, "manager", "run", "--metrics-address", "127.0.0.1:" + port);
        });
        URI metrics = URI.create("http://127.0.0.1:" + port + "/metrics");

        await().atMost(Duration.ofSeconds(30)).until(() -> run.isDone() || serves(metrics));
        assertThat(run).as("manager run, still running").isNotDone();
        String body = http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).body();
        runner[0].interrupt();
        CliRun finished = run.get();

        assertThat(body).contains("\nsqlstreams_otel_source_read_success 1.0\n")
                .contains("\nsqlstreams_otel_measurements_rejected 0.0\n");
        assertThat(finished.exitCode()).isZero();
        assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(metrics).build(),
                HttpResponse.BodyHandlers.discarding())).isInstanceOf(ConnectException.class);
    }

    @Test
    void anAddressInUseStopsTheRunWithItsCode() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + taken.getLocalPort();

            CliRun run = CliRun.run(environment, "manager", "run", "--metrics-address", address);

            assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(run.errLines()).last().asString().startsWith("SQL0108 invalid configuration: --metrics-address = "
                    + address + ": cannot listen there: ");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"9464", "localhost", "127.0.0.1:", "127.0.0.1:70000", "127.0.0.1:94x4", "no host!:9464"})
    void anInvalidAddressIsAUsageError(String address) {
        CliRun run = CliRun.run(environment, "manager", "run", "--metrics-address", address);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errLines()).singleElement().asString()
                .startsWith("SQL0108 invalid configuration: --metrics-address = ");
    }

    @Test
    void jsonOutputIsStillRefused() {
        CliRun run = CliRun.run(environment, "manager", "run", "--metrics-address", "127.0.0.1:0", "-o", "json");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.error().getString("code")).isEqualTo("usage");
        assertThat(run.error().getString("problem")).startsWith("manager run prints log lines");
    }

    private boolean serves(URI metrics) throws IOException, InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode() == 200;
        } catch (ConnectException notYet) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
