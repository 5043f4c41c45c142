package io.sqlstreams.bench;

import java.time.Duration;
import java.util.Optional;

import javax.sql.DataSource;

/**
 * What a scenario runs with.
 *
 * @param server            the measured server: its pool, its JDBC URL, and its restart when it has one
 * @param schema            a throwaway schema for the library's installation
 * @param measurement       how long one repetition of one measurement runs
 * @param measuredBaselines this run's raw-SQL figures, to hold the scenario's figures against; empty for a
 *                          scenario that does not {@linkplain Scenario#measuresBaselines() measure them}
 * @param repetitions       runs each measurement as often as asked, with progress
 * @param options           the whole command line, for the scenario-specific sizes ({@code --messages},
 *                          {@code --rates}…)
 * @param progress          where long scenarios report what they are doing
 */
record BenchContext(BenchServer server, String schema, Duration measurement, Optional<Baselines> measuredBaselines,
                    Repetitions repetitions, BenchOptions options, Progress progress) {

    /** The pool over the measured server. */
    DataSource dataSource() {
        return server.dataSource();
    }

    /** This run's baselines; only for a scenario that measures them. */
    Baselines baselines() {
        return measuredBaselines.orElseThrow(() -> new IllegalStateException(
                "scenario " + options.scenario() + " runs without baselines"));
    }

    boolean smoke() {
        return options.smoke();
    }
}
