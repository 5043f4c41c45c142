package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.testing.TestPostgres;

/**
 * The {@code collector} scenario end to end in smoke mode: the collector pass and its round-trip baseline, their
 * comparison, and a balanced ledger of the measurements the passes recorded.
 */
class CollectorSmokeTest {
    private static final Path OUT = Path.of("target", "bench-smoke");

    @Test
    void collectorSmokeRunReportsAPassAgainstAsManyRoundTrips() throws Exception {
        Path report = OUT.resolve(LocalDate.now() + "-collector.md");
        Files.deleteIfExists(report);
        List<String> args = new ArrayList<>(List.of("collector", "--smoke", "--out", OUT.toString()));
        TestPostgres.configuredUrl().ifPresent(url -> args.addAll(List.of("--jdbc-url", url)));

        int status = Bench.run(args.toArray(String[]::new));

        assertThat(report).exists();
        String text = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(text).contains("| " + CollectorScenario.collectorLabel() + " |",
                "| " + CollectorScenario.roundTripsLabel() + " |", "statements / pass", "measurements / pass",
                "the p50 of as many round trips");
        assertThat(text).contains("**PASSED** over", "lost = 0,");
        assertThat(status).as("exit status; the report:%n%s", text).isZero();
    }
}
