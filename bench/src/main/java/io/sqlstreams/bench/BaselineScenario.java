package io.sqlstreams.bench;

import java.util.List;

/** Nothing beyond the baselines every run measures: the raw-SQL ceiling of this machine on its own. */
final class BaselineScenario implements Scenario {

    @Override
    public String name() {
        return "baseline";
    }

    @Override
    public String title() {
        return "Raw-SQL ceiling only (BENCHMARKS.md, \"The baseline\")";
    }

    @Override
    public ScenarioResult run(BenchContext context) {
        return new ScenarioResult(List.of(), List.of());
    }
}
