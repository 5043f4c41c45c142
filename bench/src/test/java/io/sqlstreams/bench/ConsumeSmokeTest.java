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
 * The consume-side scenarios ({@code drain}, {@code sustained}, {@code latency}, {@code handler}, {@code failure},
 * {@code keys}, {@code retention}, {@code mvcc}, {@code fence}) end to end in smoke mode, most cut below their smoke
 * defaults: a results file with every row, a balanced ledger and every invariant kept. The figures mean nothing.
 */
class ConsumeSmokeTest {
    private static final Path OUT = Path.of("target", "bench-smoke");

    @Test
    void drainSmokeRunReportsEveryConfigurationTheCompetitorsAndABalancedLedger() throws Exception {
        long messages = 4_000;
        long tasks = 200;
        String text = run("drain", "--messages", String.valueOf(messages), "--competitor-messages",
                String.valueOf(tasks));

        for (int readBatch : DrainScenario.BATCH_LIMITS) {
            assertThat(text).contains("| " + RawDrain.label(readBatch, messages) + " |");
        }
        for (int sessions : DrainScenario.SESSIONS) {
            for (int batchLimit : DrainScenario.BATCH_LIMITS) {
                for (int concurrency : DrainScenario.CONCURRENCY) {
                    assertThat(text).contains("| " + DrainScenario.label(sessions, batchLimit, concurrency, messages)
                            + " |");
                }
            }
        }
        for (DbSchedulerDrain.Polling polling : DbSchedulerDrain.Polling.values()) {
            assertThat(text).contains("| " + DbSchedulerDrain.label(polling, tasks) + " |");
        }
        assertThat(text).contains("| " + JobRunrDrain.label(tasks) + " |").doesNotContain("NOT MEASURED");
    }

    @Test
    void sustainedSmokeRunReportsItsStepAndTheHighestPassingRate() throws Exception {
        String text = run("sustained", "--step-seconds", "1");

        for (int rate : SustainedScenario.SMOKE_RATES) {
            assertThat(text).contains("| " + SustainedScenario.stepLabel(rate) + " |");
        }
        assertThat(text).contains("| " + SustainedScenario.HIGHEST_LABEL + " |", "Highest passing rate");
    }

    @Test
    void latencySmokeRunReportsBothRatesAndPickupsForBothPollRatesAndTheDefaultOptions() throws Exception {
        String text = run("latency", "--step-seconds", "1", "--pickups", "1");

        for (var pollRate : LatencyScenario.POLL_RATES) {
            for (int rate : LatencyScenario.RATES) {
                assertThat(text).contains("| " + LatencyScenario.rateLabel(rate, pollRate) + " |");
            }
            assertThat(text).contains("| " + LatencyScenario.pickupLabel(pollRate) + " |");
        }
        assertThat(text).contains("| " + LatencyScenario.defaultsLabel(1_000) + " |", "Warm-up: ");
    }

    @Test
    void fenceSmokeRunReportsPickupsAloneAndBesideEachUnrelatedHolderAndTheNeighbouredRate() throws Exception {
        String text = run("fence", "--step-seconds", "1", "--pickups", "1");

        assertThat(text).contains("| " + FenceScenario.ALONE_PICKUP_LABEL + " |",
                "| " + FenceScenario.ALONE_RATE_LABEL + " |", "| " + FenceScenario.NEIGHBOUR_RATE_LABEL + " |");
        for (var place : FenceScenario.UNRELATED) {
            assertThat(text).contains("| " + FenceScenario.pickupLabel(place) + " |", place.flag() + " holder xid ");
        }
        assertThat(text).containsPattern("neighbour: [1-9][0-9,]* ranges committed");
    }

    @Test
    void handlerSmokeRunReportsEveryCellAgainstItsBoundWithoutLeaseReclaims() throws Exception {
        String text = run("handler");

        assertThat(text).contains("| " + HandlerScenario.REFERENCE_LABEL + " |", "### " + HandlerScenario.GRID_TITLE,
                "Warm-up: ");
        for (int handlerMillis : HandlerScenario.HANDLER_MILLIS) {
            for (int concurrency : HandlerScenario.CONCURRENCY) {
                assertThat(text).contains("| " + HandlerScenario.label(handlerMillis, concurrency) + " |");
            }
        }
        assertThat(text).contains("### Invariants: PASSED", "| lease reclaims | 0 | PASS |",
                "| leases lost | 0 | PASS |");
    }

    @Test
    void failureSmokeRunReportsEveryShareAgainstTheReferenceAndExactlyThePoisonDeadLettered() throws Exception {
        String text = run("failure", "--step-seconds", "1");

        for (boolean ordered : new boolean[] {false, true}) {
            for (int percent : FailureScenario.FAILING_PERCENT) {
                assertThat(text).contains("| " + FailureScenario.label(ordered, percent, FailureScenario.SMOKE_POISON,
                        FailureScenario.SMOKE_RATE) + " |");
            }
        }
        assertThat(text).contains("### Invariants: PASSED", "| dead letters not poison | 0 | PASS |",
                "| poison not dead | 0 | PASS |", "| order violations | 0 | PASS |",
                "| dead letters | " + 4 * FailureScenario.SMOKE_POISON + " | counted |", "Warm-up: ");
    }

    @Test
    void keysSmokeRunReportsEveryPolicyAndKeyCountWithoutViolations() throws Exception {
        long messages = KeysScenario.SMOKE_MESSAGES;
        String text = run("keys");

        assertThat(text).contains("| " + KeysScenario.unkeyedLabel(messages) + " |");
        for (var policy : KeysScenario.POLICIES) {
            for (int keys : KeysScenario.SMOKE_KEYS) {
                assertThat(text).contains("| " + KeysScenario.label(policy, keys, messages) + " |");
            }
        }
        assertThat(text).contains(", violations = 0\n");
    }

    @Test
    void retentionSmokeRunReportsEveryPhaseTheSeriesAndTheVerdicts() throws Exception {
        String text = run("retention", "--seconds", "6", "--hold-seconds", "4");

        for (String phase : List.of(RetentionScenario.SOAK, RetentionScenario.HELD, RetentionScenario.RELEASED)) {
            assertThat(text).contains("| " + RetentionScenario.phaseLabel(phase) + " |",
                    "| " + phase + " | partitions |");
        }
        assertThat(text).contains("| " + RetentionScenario.WHOLE_RUN_LABEL + " |",
                "### " + RetentionScenario.SERIES_TITLE, "### " + RetentionScenario.SUMMARY_TITLE,
                "Verdict, partition count bounded: ", "Held back by the idle group: partitions ");
    }

    @Test
    void mvccSmokeRunReportsEveryPhaseAgainstTheFirstAndTheHotTables() throws Exception {
        String text = run("mvcc", "--before", "2", "--during", "2", "--after", "2");

        for (String phase : List.of(MvccScenario.BEFORE, MvccScenario.DURING, MvccScenario.AFTER)) {
            assertThat(text).contains("| " + MvccScenario.phaseLabel(phase) + " |");
            for (String table : MvccScenario.TABLES) {
                assertThat(text).contains("| " + phase + " | " + table + " |");
            }
        }
        assertThat(text).contains("| " + MvccScenario.WHOLE_RUN_LABEL + " |", "### " + MvccScenario.SERIES_TITLE,
                "Throughput during the held horizon: ");
    }

    /** Runs {@code scenario} in smoke mode with short baselines; returns its report after the common checks. */
    private static String run(String scenario, String... extra) throws Exception {
        Path report = OUT.resolve(LocalDate.now() + "-" + scenario + ".md");
        Files.deleteIfExists(report);
        List<String> args = new ArrayList<>(List.of(scenario, "--smoke", "--seconds", "0.2", "--out", OUT.toString()));
        args.addAll(List.of(extra));
        TestPostgres.configuredUrl().ifPresent(url -> args.addAll(List.of("--jdbc-url", url)));

        int status = Bench.run(args.toArray(String[]::new));

        assertThat(report).exists();
        String text = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(text).contains("**Result: PASSED**", "**PASSED** over", "lost = 0,", "unexpected = 0,",
                "undelivered = 0,");
        assertThat(status).as("exit status; the report:%n%s", text).isZero();
        return text;
    }
}
