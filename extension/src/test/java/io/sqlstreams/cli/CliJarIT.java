package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sqlstreams.Measurement;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

/**
 * The packaged tool, run as an operator runs it ({@code java -jar sqlstreams-extension-…-cli.jar}): what the
 * in-process command tests cannot show, that the shaded jar carries everything its commands need (JSON binding
 * to decode stored measurements and alerts, the Prometheus libraries, the JDBC driver); and the distribution an
 * operator unpacks, the launcher beside the jar and the completion script.
 */
@PostgresTest
class CliJarIT {
    private static final Path JAR = Path.of(System.getProperty("sqlstreams.cli.jar", "target/missing-cli.jar"));
    private static final Path DISTRIBUTION = Path.of(System.getProperty("sqlstreams.cli.distribution",
            "target/missing-cli.tar.gz"));
    private static final String VERSION = System.getProperty("sqlstreams.cli.version", "missing");

    @Test
    void theShadedToolExplainsOfflineAndReadsMetricsAndAlerts(TestDatabase database) throws Exception {
        assertThat(JAR).as("the -cli jar built by the package phase").exists();
        try (EngineClient client = EngineFixtures.client(database, new RecordingLogger())) {
            client.system().metrics().producer().produce(Measurement.gauge("billing.queue_depth", 3, "{job}",
                    Map.of("queue", "invoices")));
        }
        Map<String, String> installation = CliRun.environmentFor(database);

        Run explain = run(Map.of(), "explain", "partition_count", "-o", "json");
        assertThat(explain.exitCode()).as(explain.err()).isZero();
        assertThat(object(explain.out()).getString("code")).isEqualTo("SQL0094");

        Run metrics = run(installation, "metric", "latest", "billing.queue_depth", "-o", "json");
        assertThat(metrics.exitCode()).as(metrics.err()).isZero();
        JsonObject latest = object(metrics.out());
        assertThat(latest.getJsonArray("series")).hasSize(1);
        assertThat(latest.getJsonArray("series").getJsonObject(0).getJsonNumber("value").doubleValue())
                .isEqualTo(3.0);

        Run alerts = run(installation, "alert", "list", "-o", "json");
        assertThat(alerts.exitCode()).as(alerts.err()).isZero();
        assertThat(array(alerts.out())).isEmpty();
    }

    @Test
    void theDistributionShipsTheLauncherWithTheJarAndTheCompletionScript(@TempDir Path installed) throws Exception {
        assertThat(DISTRIBUTION).as("the distribution the package phase wrote").exists();
        Run unpacked = command(Map.of(), List.of("tar", "-xzf", DISTRIBUTION.toString(), "-C", installed.toString()));
        assertThat(unpacked.exitCode()).as(unpacked.err()).isZero();
        List<Path> unpackedEntries;
        try (var entries = Files.list(installed)) {
            unpackedEntries = entries.toList();
        }
        assertThat(unpackedEntries).as("the distribution's one directory")
                .containsExactly(installed.resolve("sqlstreams-" + VERSION));
        Path directory = unpackedEntries.get(0);
        Path launcher = directory.resolve("sqlstreams");

        assertThat(launcher).as("the launcher").isExecutable();
        Run version = command(Map.of("JAVA_HOME", System.getProperty("java.home")),
                List.of(launcher.toString(), "--version"));
        assertThat(version.exitCode()).as(version.err()).isZero();
        assertThat(version.out()).startsWith("sqlstreams ");
        assertThat(BashCompletion.candidates(directory.resolve("sqlstreams_completion"), "sqlstreams stream k"))
                .containsExactly("key");
    }

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        return command(environment, command);
    }

    private static Run command(Map<String, String> environment, List<String> command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Path out = Files.createTempFile("cli-out", ".txt");
        Path err = Files.createTempFile("cli-err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("the command did not end within 2 minutes: " + command);
        }
        Run run = new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return run;
    }

    private static JsonObject object(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }

    private static JsonArray array(String json) {
        return Json.createReader(new StringReader(json)).readArray();
    }
}
