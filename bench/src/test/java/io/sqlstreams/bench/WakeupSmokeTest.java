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

/** The {@code wakeup} scenario end to end in smoke mode: both produce figures, their comparison, balanced ledgers. */
class WakeupSmokeTest {
    private static final Path OUT = Path.of("target", "bench-smoke");

    @Test
    void wakeupSmokeRunReportsTheProduceCeilingWithWakeupOnAndOff() throws Exception {
        Path report = OUT.resolve(LocalDate.now() + "-wakeup.md");
        Files.deleteIfExists(report);
        List<String> args = new ArrayList<>(List.of("wakeup", "--smoke", "--out", OUT.toString()));
        TestPostgres.configuredUrl().ifPresent(url -> args.addAll(List.of("--jdbc-url", url)));

        int status = Bench.run(args.toArray(String[]::new));

        assertThat(report).exists();
        String text = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(text).contains("| " + WakeupScenario.label(true) + " |", "| " + WakeupScenario.label(false) + " |",
                "wake-up on against off");
        assertThat(text).contains("**PASSED** over", "lost = 0,");
        assertThat(status).as("exit status; the report:%n%s", text).isZero();
    }
}
