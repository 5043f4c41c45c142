package io.sqlstreams.bench;

/** One benchmark of BENCHMARKS.md, run after the baselines and held against them. */
interface Scenario {

    /** The name it is run by on the command line and that names its results file. */
    String name();

    /** Its heading in the report. */
    String title();

    ScenarioResult run(BenchContext context) throws Exception;

    /**
     * Whether the run measures the raw-SQL baselines before this scenario. A scenario that checks behaviour
     * rather than speed (the chaos lab) holds nothing against them and skips them.
     */
    default boolean measuresBaselines() {
        return true;
    }

    /** Why a scenario that does not {@linkplain #measuresBaselines() measure the baselines} needs none. */
    default String withoutBaselinesBecause() {
        return "this scenario checks behaviour, not speed";
    }
}
