package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import javax.sql.DataSource;

/**
 * What the backends of the measured processes (application name {@code sqlstreams-scale-…}: other clients of a
 * shared server are left out) are doing, read from {@code pg_stat_activity} every 100 ms on a connection of its own:
 * each active backend's wait event ({@code CPU} when it waits for none) and the start of its statement. Summed, it
 * gives the lock waits (backends with {@code wait_event_type = 'Lock'}) and where the server's time goes.
 */
final class ServerActivity implements AutoCloseable {
    static final Duration PERIOD = Duration.ofMillis(100);
    static final String APPLICATION_PREFIX = "sqlstreams-scale";
    private static final String LOCK = "Lock";
    private static final String QUERY = "SELECT coalesce(wait_event_type, 'CPU'), coalesce(wait_event_type || ':'"
            + " || wait_event, 'CPU'), left(regexp_replace(regexp_replace(query, '\\s+', ' ', 'g'),"
            + " 'bench_[0-9a-z]+\\.', '', 'g'), 72) FROM pg_stat_activity WHERE state = 'active'"
            + " AND pid <> pg_backend_pid()"
            + " AND application_name LIKE '" + APPLICATION_PREFIX + "%'";

    /** One active backend in one sample: its wait event type and event, and its statement's start. */
    record Backend(String type, String event, String statement) {
    }

    /**
     * Every sample summed.
     *
     * @param samples        samples taken
     * @param lockSamples    samples with at least one backend waiting for a lock
     * @param lockWaits      backends waiting for a lock, summed over the samples
     * @param peakLockWaits  the most backends waiting for a lock in one sample
     * @param events         active backends by wait event ({@code CPU}: none), summed over the samples
     * @param lockStatements backends waiting for a lock by wait event and statement, summed over the samples
     */
    record Summary(int samples, int lockSamples, long lockWaits, int peakLockWaits, Map<String, Long> events,
                   Map<String, Long> lockStatements) {

        static Summary of(List<List<Backend>> readings) {
            int lockSamples = 0;
            long lockWaits = 0;
            int peak = 0;
            Map<String, Long> events = new TreeMap<>();
            Map<String, Long> lockStatements = new TreeMap<>();
            for (List<Backend> reading : readings) {
                int waiting = 0;
                for (Backend backend : reading) {
                    events.merge(backend.event(), 1L, Long::sum);
                    if (backend.type().equals(LOCK)) {
                        waiting++;
                        lockStatements.merge(backend.event() + " — " + backend.statement(), 1L, Long::sum);
                    }
                }
                lockSamples += waiting > 0 ? 1 : 0;
                lockWaits += waiting;
                peak = Math.max(peak, waiting);
            }
            return new Summary(readings.size(), lockSamples, lockWaits, peak, events, lockStatements);
        }

        /** Every summary's counts added up; the peak is the highest. */
        static Summary merged(List<Summary> summaries) {
            Map<String, Long> events = new TreeMap<>();
            Map<String, Long> statements = new TreeMap<>();
            summaries.forEach(s -> {
                s.events().forEach((k, v) -> events.merge(k, v, Long::sum));
                s.lockStatements().forEach((k, v) -> statements.merge(k, v, Long::sum));
            });
            return new Summary(summaries.stream().mapToInt(Summary::samples).sum(),
                    summaries.stream().mapToInt(Summary::lockSamples).sum(),
                    summaries.stream().mapToLong(Summary::lockWaits).sum(),
                    summaries.stream().mapToInt(Summary::peakLockWaits).max().orElse(0), events, statements);
        }

        /** The {@code most} commonest wait events with their share of active backend samples, e.g. {@code CPU 61%}. */
        String topEvents(int most) {
            long all = events.values().stream().mapToLong(Long::longValue).sum();
            return all == 0 ? "no active backend seen" : top(events, most).stream().map(e -> String.format(Locale.ROOT,
                    "%s %.0f%%", e.getKey(), 100.0 * e.getValue() / all)).reduce((a, b) -> a + ", " + b).orElseThrow();
        }

        /** The {@code most} statements seen waiting for a lock, with how often. */
        List<String> topLockStatements(int most) {
            return top(lockStatements, most).stream().map(e -> e.getValue() + "× " + e.getKey()).toList();
        }

        private static List<Map.Entry<String, Long>> top(Map<String, Long> counts, int most) {
            return counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator
                    .reverseOrder())).limit(most).toList();
        }
    }

    private final PeriodicSampler<List<Backend>> sampler;

    private ServerActivity(PeriodicSampler<List<Backend>> sampler) {
        this.sampler = sampler;
    }

    static ServerActivity start(DataSource dataSource) {
        return new ServerActivity(PeriodicSampler.start("bench-activity", dataSource, PERIOD, ServerActivity::read,
                reading -> { }));
    }

    /** Stops sampling; returns the summary. */
    Summary stop() throws SQLException, InterruptedException {
        return Summary.of(sampler.stop().stream().map(PeriodicSampler.Timed::value).toList());
    }

    @Override
    public void close() throws Exception {
        sampler.close();
    }

    private static List<Backend> read(Connection connection) throws SQLException {
        List<Backend> backends = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(QUERY)) {
            while (rows.next()) {
                backends.add(new Backend(rows.getString(1), rows.getString(2), rows.getString(3)));
            }
        }
        return backends;
    }
}
