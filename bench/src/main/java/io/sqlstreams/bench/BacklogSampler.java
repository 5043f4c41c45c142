package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

/**
 * Samples a stream's backlog (head − the group's committed cursor) once a second on a connection of its own, from
 * {@link #start} until {@link #stop}, and says how much it grew: the least-squares slope over the samples times
 * the sampled span, so one noisy sample (the committed cursor moves once a second) does not decide.
 */
final class BacklogSampler implements AutoCloseable {
    private static final long PERIOD_NANOS = 1_000_000_000L;

    /** One sample: seconds since the start, backlog in messages. */
    record Point(double seconds, long backlog) {
    }

    private final Thread thread;
    private final List<Point> points = new ArrayList<>();
    private volatile boolean stopping;
    private volatile SQLException failure;

    private BacklogSampler(DataSource dataSource, BenchStream stream, long startNanos) {
        thread = new Thread(() -> sample(dataSource, stream, startNanos), "bench-backlog");
        thread.setDaemon(true);
    }

    static BacklogSampler start(DataSource dataSource, BenchStream stream) {
        BacklogSampler sampler = new BacklogSampler(dataSource, stream, System.nanoTime());
        sampler.thread.start();
        return sampler;
    }

    private void sample(DataSource dataSource, BenchStream stream, long startNanos) {
        try (Connection connection = dataSource.getConnection()) {
            long next = startNanos;
            while (!stopping) {
                long now = System.nanoTime();
                if (now < next) {
                    Thread.sleep((next - now) / 1_000_000, (int) ((next - now) % 1_000_000));
                    continue;
                }
                long backlog = stream.backlog(connection);
                synchronized (points) {
                    points.add(new Point((System.nanoTime() - startNanos) / 1e9, backlog));
                }
                next += PERIOD_NANOS;
            }
        } catch (SQLException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops sampling and returns the samples. */
    List<Point> stop() throws SQLException, InterruptedException {
        stopping = true;
        thread.interrupt();
        thread.join();
        if (failure != null) {
            throw failure;
        }
        synchronized (points) {
            return List.copyOf(points);
        }
    }

    @Override
    public void close() throws Exception {
        if (!stopping) {
            stop();
        }
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
