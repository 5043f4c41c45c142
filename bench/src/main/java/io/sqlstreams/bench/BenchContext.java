package io.sqlstreams.bench;

import java.time.Duration;

import javax.sql.DataSource;

/**
 * What a scenario runs with.
 *
 * @param dataSource  the pool over the measured server
 * @param schema      a throwaway schema for the library's installation
 * @param measurement how long one repetition of one measurement runs
 * @param baselines   this run's raw-SQL figures, to hold the scenario's figures against
 * @param repetitions runs each measurement as often as asked, with progress
 * @param options     the whole command line, for the scenario-specific sizes ({@code --messages}, {@code --rates}…)
 * @param progress    where long scenarios report what they are doing
 */
record BenchContext(DataSource dataSource, String schema, Duration measurement, Baselines baselines,
                    Repetitions repetitions, BenchOptions options, Progress progress) {

    boolean smoke() {
        return options.smoke();
    }
}
