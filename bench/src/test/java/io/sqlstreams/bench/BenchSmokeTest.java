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

/** The {@code produce} scenario end to end in smoke mode: a results file with every row and a balanced ledger. */
class BenchSmokeTest {
    private static final Path OUT = Path.of("target", "bench-smoke");

    @Test
    void produceSmokeRunReportsBaselinesEveryMeasurementAndABalancedLedger() throws Exception {
        Path report = OUT.resolve(LocalDate.now() + "-produce.md");
        Files.deleteIfExists(report);
        List<String> args = new ArrayList<>(List.of("produce", "--smoke", "--out", OUT.toString()));
        TestPostgres.configuredUrl().ifPresent(url -> args.addAll(List.of("--jdbc-url", url)));

        int status = Bench.run(args.toArray(String[]::new));

        assertThat(report).exists();
        String text = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(text).contains(InsertBaseline.BATCH_100.label(), InsertBaseline.BATCH_1000.label(),
                InsertBaseline.BATCH_1000_TWO_THREADS.label(), CursorBaseline.LABEL);
        for (int callers : ProduceScenario.CALLERS) {
            assertThat(text).contains("| " + ProduceScenario.produceLabel(callers) + " |");
        }
        assertThat(text).contains("| " + ProduceScenario.batchLabel(ProduceScenario.SMALL_BATCH) + " |",
                "| " + ProduceScenario.batchLabel(ProduceScenario.LARGE_BATCH) + " |");
        assertThat(text).contains("**PASSED** over", "lost = 0,");
        assertThat(status).as("exit status; the report:%n%s", text).isZero();
    }
}
