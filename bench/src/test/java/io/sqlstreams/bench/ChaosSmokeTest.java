package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The reliability lab end to end in smoke mode: two consumer JVMs, 2,000 messages, two SIGKILLs, a backend storm and
 * a PostgreSQL restart, and every invariant holds. It always runs on an embedded PostgreSQL of its own, whatever
 * {@code SQLSTREAMS_TEST_JDBC_URL} says: it restarts its server, which it may only do to one it owns.
 */
class ChaosSmokeTest {
    private static final Path OUT = Path.of("target", "bench-smoke");

    @Test
    void chaosSmokeRunSurvivesKillsAStormAndARestartWithEveryInvariantHeld() throws Exception {
        Path report = OUT.resolve(LocalDate.now() + "-chaos.md");
        Files.deleteIfExists(report);

        int status = Bench.run("chaos", "--smoke", "--out", OUT.toString());

        assertThat(report).exists();
        String text = Files.readString(report, StandardCharsets.UTF_8);
        Map<String, Long> figures = figures(text, ChaosScenario.label(ChaosScenario.SMOKE_CONSUMERS,
                ChaosScenario.SMOKE_MESSAGES, ChaosScenario.SMOKE_RATE));
        assertThat(figures).as("the report:%n%s", text)
                .containsEntry(Metric.PRODUCED.heading(), ChaosScenario.SMOKE_MESSAGES)
                .containsEntry(Metric.HANDLED.heading(), ChaosScenario.SMOKE_MESSAGES)
                .containsEntry(Metric.RESTARTS.heading(), 1L)
                .containsEntry(Metric.ORDER_VIOLATIONS.heading(), 0L)
                .containsEntry(Metric.OVERLAPS.heading(), 0L);
        assertThat(figures.get(Metric.KILLS.heading())).isGreaterThanOrEqualTo(2);
        assertThat(figures.get(Metric.BACKENDS_TERMINATED.heading())).as("one storm's terminations").isPositive();
        assertThat(figures.get(Metric.RUNS.heading())).isGreaterThan(ChaosScenario.SMOKE_MESSAGES);
        for (String invariant : List.of("lost", "unexpected", "ordered violations", "exclusive overlaps")) {
            assertThat(text).contains("| " + invariant + " | 0 | PASS |");
        }
        assertThat(text).contains("| duplicates |", "### Invariants: PASSED", "**Result: PASSED**",
                "**PASSED** over 1 checks");
        assertThat(status).as("exit status; the report:%n%s", text).isZero();
    }

    /** The medians of the figure table row labelled {@code label}, by column heading. */
    private static Map<String, Long> figures(String report, String label) {
        List<String> lines = report.lines().toList();
        int row = lines.indexOf(lines.stream().filter(line -> line.startsWith("| " + label + " |")).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + label + " in:\n" + report)));
        List<String> headings = cells(lines.get(row - 2));
        List<String> values = cells(lines.get(row));
        Map<String, Long> figures = new LinkedHashMap<>();
        for (int k = 1; k < headings.size(); k++) {
            figures.put(headings.get(k), Long.parseLong(values.get(k).split(" ")[0].replace(",", "")));
        }
        return figures;
    }

    private static List<String> cells(String row) {
        return Arrays.stream(row.substring(1, row.length() - 1).split("\\|")).map(String::trim).toList();
    }
}
