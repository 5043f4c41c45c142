package io.sqlstreams.bench;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

/**
 * Samples a stream's backlog (head − the group's committed cursor) once a second on a connection of its own, from
 * {@link #start} until {@link #stop}, and says how much it grew: the least-squares slope over the samples times
 * the sampled span, so one noisy sample (the committed cursor moves once a second) does not decide.
 */
final class BacklogSampler implements AutoCloseable {
    private static final Duration PERIOD = Duration.ofSeconds(1);

    /** One sample: seconds since the start, backlog in messages. */
    record Point(double seconds, long backlog) {
    }

    private final PeriodicSampler<Long> sampler;

    private BacklogSampler(PeriodicSampler<Long> sampler) {
        this.sampler = sampler;
    }

    static BacklogSampler start(DataSource dataSource, BenchStream stream) {
        return new BacklogSampler(PeriodicSampler.start("bench-backlog", dataSource, PERIOD, stream::backlog,
                reading -> { }));
    }

    /** Stops sampling and returns the samples. */
    List<Point> stop() throws SQLException, InterruptedException {
        return sampler.stop().stream().map(reading -> new Point(reading.seconds(), reading.value())).toList();
    }

    @Override
    public void close() throws Exception {
        sampler.close();
    }

    /** Growth over the samples' span by least squares; 0 with fewer than two samples. */
    static double growth(List<Point> points) {
        int n = points.size();
        if (n < 2) {
            return 0;
        }
        double meanT = points.stream().mapToDouble(Point::seconds).average().orElseThrow();
        double meanB = points.stream().mapToDouble(Point::backlog).average().orElseThrow();
        double cov = 0;
        double var = 0;
        for (Point p : points) {
            cov += (p.seconds() - meanT) * (p.backlog() - meanB);
            var += (p.seconds() - meanT) * (p.seconds() - meanT);
        }
        double span = points.get(n - 1).seconds() - points.get(0).seconds();
        return var == 0 ? 0 : cov / var * span;
    }
}
