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
 * {@code bench handler-forms} end to end in smoke mode: the realistic shape drained by plain, transactional and batch
 * handlers in consumer JVMs, every form's figures and ratios in the report, a balanced ledger and the invariants kept.
 * The figures mean nothing.
 */
class HandlerFormsSmokeTest {
    private static final Path OUT = Path.of("target", "bench-smoke");

    @Test
    void everyFormDrainsTheRealisticShapeAndKeepsTheKeysPromises() throws Exception {
        Path report = OUT.resolve(LocalDate.now() + "-handler-forms.md");
        Files.deleteIfExists(report);
        List<String> args = new ArrayList<>(List.of("handler-forms", "--smoke", "--out", OUT.toString()));
        TestPostgres.configuredUrl().ifPresent(url -> args.addAll(List.of("--jdbc-url", url)));

        int status = Bench.run(args.toArray(String[]::new));

        assertThat(report).exists();
        String text = Files.readString(report, StandardCharsets.UTF_8);
        for (HandlerForm form : HandlerForm.values()) {
            assertThat(text).contains("| " + HandlerFormDrains.label(form, ScaleScenario.SMOKE_CONSUMERS) + " |",
                    "| " + form.wireName() + ": exclusive overlaps | 0 | PASS |",
                    "| " + form.wireName() + ": ordered violations | 0 | PASS |");
            for (String group : RealisticShape.GROUPS) {
                assertThat(text).contains("| " + HandlerFormDrains.groupLabel(form, group) + " |");
            }
        }
        assertThat(text).contains("**Result: PASSED**", "**PASSED** over", "lost = 0,", "unexpected = 0,",
                "undelivered = 0,", ", violations = 0\n", "### Invariants: PASSED",
                "| transactional: duplicates | 0 | PASS |", "| batch: duplicates | 0 | PASS |",
                "transactional ÷ plain", "batch ÷ plain", "commits / msg", "### " + ServerCost.TABLE_TITLE);
        assertThat(status).as("exit status; the report:%n%s", text).isZero();
    }

    @Test
    void theConsumerCommandNamesTheFormLastAndDefaultsToPlain() {
        String[] line = "consume s g insert t 7".split(" ");
        assertThat(HandlerForm.at(line, 6)).isEqualTo(HandlerForm.PLAIN);
        for (HandlerForm form : HandlerForm.values()) {
            assertThat(HandlerForm.at(("consume s g insert t 7 " + form.wireName()).split(" "), 6)).isEqualTo(form);
        }
        assertThatThrownBy(() -> HandlerForm.at("consume s g insert t 7 Batch".split(" "), 6))
                .hasMessageContaining("no handler form Batch");
    }
}
