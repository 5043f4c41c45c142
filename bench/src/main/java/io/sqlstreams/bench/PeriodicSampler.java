package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import javax.sql.DataSource;

/**
 * Reads something from the database at a fixed period on a connection of its own, on a thread of its own, from
 * {@link #start} until {@link #stop}, and keeps every reading with the seconds since the start. The first reading
 * is taken at once.
 *
 * @param <T> what one reading yields
 */
final class PeriodicSampler<T> implements AutoCloseable {

    /** One reading's query, run on the sampler's connection. */
    @FunctionalInterface
    interface Reading<T> {
        T read(Connection connection) throws SQLException;
    }

    /** One reading, taken {@code seconds} after the start. */
    record Timed<T>(double seconds, T value) {
    }

    private final Thread thread;
    private final List<Timed<T>> readings = new ArrayList<>();
    private volatile boolean stopping;
    private volatile SQLException failure;

    private PeriodicSampler(String name, DataSource dataSource, Duration period, Reading<T> reading,
                            Consumer<Timed<T>> listener, long startNanos) {
        thread = new Thread(() -> sample(dataSource, period.toNanos(), reading, listener, startNanos), name);
        thread.setDaemon(true);
    }

    /** Starts reading every {@code period}, telling {@code listener} (on the sampler's thread) of each reading. */
    static <T> PeriodicSampler<T> start(String name, DataSource dataSource, Duration period, Reading<T> reading,
                                        Consumer<Timed<T>> listener) {
        PeriodicSampler<T> sampler = new PeriodicSampler<>(name, dataSource, period, reading, listener,
                System.nanoTime());
        sampler.thread.start();
        return sampler;
    }

    private void sample(DataSource dataSource, long periodNanos, Reading<T> reading, Consumer<Timed<T>> listener,
                        long startNanos) {
        try (Connection connection = dataSource.getConnection()) {
            long next = startNanos;
            while (!stopping) {
                long now = System.nanoTime();
                if (now < next) {
                    Thread.sleep((next - now) / 1_000_000, (int) ((next - now) % 1_000_000));
                    continue;
                }
                T value = reading.read(connection);
                Timed<T> timed = new Timed<>((System.nanoTime() - startNanos) / 1e9, value);
                synchronized (readings) {
                    readings.add(timed);
                }
                listener.accept(timed);
                next += periodNanos;
            }
        } catch (SQLException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The readings so far. */
    List<Timed<T>> readings() {
        synchronized (readings) {
            return List.copyOf(readings);
        }
    }

    /** Stops reading and returns every reading; throws the failure that stopped it early, if one did. */
    List<Timed<T>> stop() throws SQLException, InterruptedException {
        stopping = true;
        thread.interrupt();
        thread.join();
        if (failure != null) {
            throw failure;
        }
        return readings();
    }

    @Override
    public void close() throws Exception {
        if (!stopping) {
            stop();
        }
    }
}
