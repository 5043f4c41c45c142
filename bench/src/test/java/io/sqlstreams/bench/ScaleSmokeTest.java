package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.testing.TestPostgres;

/**
 * {@code bench scale} end to end in smoke mode: separate consumer and producer JVMs, every process count's drain and
 * the realistic shape's producer and groups in the report, a balanced ledger, the invariants kept and the cost table
 * written. The figures mean nothing.
 */
class ScaleSmokeTest {
    private static final Path OUT = Path.of("target", "bench-smoke");

    @Test
    void scaleSmokeRunDrainsOnEveryProcessCountAndKeepsTheKeysPromises() throws Exception {
        Path report = OUT.resolve(LocalDate.now() + "-scale.md");
        Files.deleteIfExists(report);
        List<String> args = new ArrayList<>(List.of("scale", "--smoke", "--seconds", "0.5", "--out", OUT.toString()));
        TestPostgres.configuredUrl().ifPresent(url -> args.addAll(List.of("--jdbc-url", url)));

        int status = Bench.run(args.toArray(String[]::new));

        assertThat(report).exists();
        String text = Files.readString(report, StandardCharsets.UTF_8);
        for (int processes : ScaleScenario.SMOKE_PROCESSES) {
            assertThat(text).contains("| " + ScaleDrains.label(processes, ScaleScenario.SMOKE_MESSAGES) + " |");
        }
        assertThat(text).contains("| " + RealisticShape.producerLabel(ScaleScenario.SMOKE_CONSUMERS) + " |");
        for (String group : RealisticShape.GROUPS) {
            assertThat(text).contains("| " + RealisticShape.groupLabel(group, ScaleScenario.SMOKE_CONSUMERS) + " |");
        }
        assertThat(text).contains("**Result: PASSED**", "**PASSED** over", "lost = 0,", "unexpected = 0,",
                "undelivered = 0,", ", violations = 0\n", "### Invariants: PASSED", "| ordered violations | 0 | PASS |",
                "| exclusive overlaps | 0 | PASS |", "### " + ServerCost.TABLE_TITLE, "Warm-up: ",
                "% of the 1-process figure");
        assertThat(status).as("exit status; the report:%n%s", text).isZero();
    }

    @Test
    void processCountsAreOptionalAndParsed() throws Exception {
        assertThat(BenchOptions.parse(new String[] {"scale"}).processes()).isEmpty();
        assertThat(BenchOptions.parse(new String[] {"scale", "--processes", "1, 3,8"}).processes())
                .containsExactly(1, 3, 8);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"scale",
                "--processes", "0"})).hasMessageContaining("--processes needs a whole number of at least 1");
    }
}
