package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

/**
 * The reliability lab end to end in smoke mode, with each handler mode: two consumer JVMs, 2,000 messages, two
 * SIGKILLs, a backend storm and a PostgreSQL restart, the fence holders on (held producer transactions, unrelated
 * xid holders), and every invariant holds. It always runs on an embedded
 * PostgreSQL of its own, whatever {@code SQLSTREAMS_TEST_JDBC_URL} says: it restarts its server, which it may only do
 * to one it owns.
 */
class ChaosSmokeTest {
    private static final Path OUT = Path.of("target", "bench-smoke");

    @Test
    void chaosSmokeRunSurvivesKillsAStormAndARestartWithEveryInvariantHeld() throws Exception {
        Report report = run(HandlerMode.PLAIN);

        report.assertEveryLedgerInvariantHeld();
    }

    /**
     * The same faults with a transactional handler: every produced message but a poison one leaves exactly one row
     * in the effects table, whose primary key no run ever met twice.
     */
    @Test
    void aTransactionalHandlersEffectsHappenExactlyOnceThroughKillsAStormAndARestart() throws Exception {
        long seed = ThreadLocalRandom.current().nextLong();
        long poison = LongStream.range(0, ChaosScenario.SMOKE_MESSAGES).mapToObj(new ChaosPlan(seed)::message)
                .filter(message -> message.behaviour() == ChaosPlan.Behaviour.POISON).count();

        Report report = run(HandlerMode.TRANSACTIONAL, "--seed", Long.toString(seed));

        report.assertEveryLedgerInvariantHeld();
        long steadyEffects = ChaosScenario.SMOKE_MESSAGES - poison;
        assertThat(report.figures().get(Metric.EFFECT_ROWS.heading())).as("the report:%n%s", report.text())
                .isBetween(steadyEffects, steadyEffects + report.figures().get(Metric.HELD_PRODUCED.heading()));
        for (String invariant : List.of("missing effects", "extra effects", "unique violations")) {
            assertThat(report.text()).contains("| " + invariant + " | 0 | PASS |");
        }
    }

    /** Runs {@code chaos --smoke} with {@code handler} and {@code more} flags; returns its report and exit status. */
    private static Report run(HandlerMode handler, String... more) throws Exception {
        Path file = OUT.resolve(LocalDate.now() + "-chaos.md");
        Files.deleteIfExists(file);
        List<String> args = new ArrayList<>(List.of("chaos", "--smoke", "--out", OUT.toString(), "--handler",
                handler.flagValue()));
        args.addAll(List.of(more));

        int status = Bench.run(args.toArray(String[]::new));

        assertThat(file).exists();
        String text = Files.readString(file, StandardCharsets.UTF_8);
        return new Report(text, figures(text, ChaosScenario.label(ChaosScenario.SMOKE_CONSUMERS,
                ChaosScenario.SMOKE_MESSAGES, ChaosScenario.SMOKE_RATE, handler)), status);
    }

    /** A run's report, its figures by column heading, and its exit status. */
    private record Report(String text, Map<String, Long> figures, int status) {

        void assertEveryLedgerInvariantHeld() {
            long produced = ChaosScenario.SMOKE_MESSAGES + figures.get(Metric.HELD_PRODUCED.heading());
            assertThat(figures).as("the report:%n%s", text)
                    .containsEntry(Metric.PRODUCED.heading(), produced)
                    .containsEntry(Metric.HANDLED.heading(), produced)
                    .containsEntry(Metric.RESTARTS.heading(), 1L)
                    .containsEntry(Metric.ORDER_VIOLATIONS.heading(), 0L)
                    .containsEntry(Metric.OVERLAPS.heading(), 0L);
            assertThat(figures.get(Metric.KILLS.heading())).isGreaterThanOrEqualTo(2);
            assertThat(figures.get(Metric.BACKENDS_TERMINATED.heading())).as("one storm's terminations").isPositive();
            assertThat(figures.get(Metric.RUNS.heading())).isGreaterThan(ChaosScenario.SMOKE_MESSAGES);
            assertThat(figures.get(Metric.HELD_TRANSACTIONS.heading())).as("held producer transactions").isPositive();
            assertThat(figures.get(Metric.UNRELATED_HOLDS.heading())).as("one holder of each place at least")
                    .isGreaterThanOrEqualTo(UnrelatedHolders.Place.values().length);
            assertThat(text).contains("Held producer transactions (", "Unrelated holders (",
                    "None of the lab's prepared transactions was left").containsPattern("; prepared [1-9][0-9]* \\(");
            for (String invariant : List.of("lost", "unexpected", "ordered violations", "exclusive overlaps",
                    "prepared transactions left")) {
                assertThat(text).contains("| " + invariant + " | 0 | PASS |");
            }
            assertThat(text).contains("| duplicates |", "### Invariants: PASSED", "**Result: PASSED**",
                    "**PASSED** over 1 checks");
            assertThat(status).as("exit status; the report:%n%s", text).isZero();
        }
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
