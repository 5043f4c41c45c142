package io.sqlstreams.bench;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Everything one run measured, for {@link ReportWriter}.
 *
 * @param scenario    what ran
 * @param startedAt   when the run started
 * @param options     how it was asked to run
 * @param environment where it ran
 * @param baselines   the raw-SQL figures; empty for a scenario that does not measure them
 * @param result      the scenario's figures; empty when it failed
 * @param failure     why the scenario failed; empty when it completed
 */
record RunReport(Scenario scenario, Instant startedAt, BenchOptions options, Environment environment,
                 Optional<Baselines> baselines, Optional<ScenarioResult> result, Optional<String> failure) {

    /** Every figure of the run, baselines first. */
    List<Figure> figures() {
        return Stream.concat(baselines.stream().flatMap(b -> b.all().stream()),
                result.stream().flatMap(r -> r.figures().stream())).toList();
    }

    boolean ledgersPassed() {
        return figures().stream().allMatch(Figure::ledgersPassed);
    }

    boolean invariantsPassed() {
        return result.map(ScenarioResult::invariantsPassed).orElse(true);
    }

    boolean passed() {
        return failure.isEmpty() && ledgersPassed() && invariantsPassed();
    }
}
