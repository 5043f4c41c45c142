package io.sqlstreams.bench;

import java.net.URI;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import javax.sql.DataSource;

/**
 * What one measurement cost, metered from its start to its end: the CPU of every local {@code postgres} process and
 * of the measured consumer and producer JVMs ({@link ProcessCpu}), the updates of the stream's cursor rows (one per
 * claim transaction, whether it claimed anything or not, and one per advance of a committed cursor; as far as the
 * server's statistics had caught up, which lag up to a second), and what the clients' backends were doing
 * ({@link ServerActivity}, sampled every 100 ms).
 */
final class ServerCost {
    private static final Set<String> LOCAL_HOSTS = Set.of("127.0.0.1", "localhost", "[::1]", "::1");

    /**
     * One measurement's cost.
     *
     * @param postgresMicros PostgreSQL CPU per message in µs; empty when it cannot be read
     * @param postgresCores  PostgreSQL CPU over the wall time: how many cores it kept busy; empty likewise
     * @param consumerMicros the consumer JVMs' CPU per message in µs
     * @param producerMicros the producer JVM's CPU per message in µs
     * @param cursorUpdates  updates of the stream's cursor rows per 1,000 messages
     * @param activity       the samples of the clients' backends
     */
    record Cost(OptionalDouble postgresMicros, OptionalDouble postgresCores, double consumerMicros,
                double producerMicros, double cursorUpdates, ServerActivity.Summary activity) {
    }

    private final DataSource dataSource;
    private final boolean localServer;
    private final List<Long> consumers;
    private final List<Long> producers;
    private final String cursorTable;
    private final OptionalLong postgresBefore;
    private final long consumersBefore;
    private final long producersBefore;
    private final long cursorBefore;
    private final long startNanos;
    private final ServerActivity activity;

    private ServerCost(DataSource dataSource, boolean localServer, List<Long> consumers, List<Long> producers,
                       String cursorTable) throws SQLException {
        this.dataSource = dataSource;
        this.localServer = localServer;
        this.consumers = List.copyOf(consumers);
        this.producers = List.copyOf(producers);
        this.cursorTable = cursorTable;
        this.cursorBefore = cursorUpdates();
        this.postgresBefore = localServer ? ProcessCpu.postgres() : OptionalLong.empty();
        this.consumersBefore = ProcessCpu.of(consumers);
        this.producersBefore = ProcessCpu.of(producers);
        this.startNanos = System.nanoTime();
        this.activity = ServerActivity.start(dataSource);
    }

    /**
     * Starts metering.
     *
     * @param jdbcUrl     the measured server: its processes are read only when it runs on this machine
     * @param consumers   the pids of the consumer JVMs
     * @param producers   the pids of the producer JVMs
     * @param cursorTable the stream's consumer group cursor table, schema-qualified
     */
    static ServerCost start(DataSource dataSource, String jdbcUrl, List<Long> consumers, List<Long> producers,
                            String cursorTable) throws SQLException {
        return new ServerCost(dataSource, local(jdbcUrl), consumers, producers, cursorTable);
    }

    /** Whether {@code jdbcUrl} names a server on this machine, whose processes /proc shows. */
    static boolean local(String jdbcUrl) {
        String host = URI.create(jdbcUrl.substring("jdbc:".length())).getHost();
        return host != null && LOCAL_HOSTS.contains(host);
    }

    /** Stops metering; {@code messages} is what the cost is shared among. */
    Cost stop(long messages) throws Exception {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        OptionalLong postgresAfter = localServer ? ProcessCpu.postgres() : OptionalLong.empty();
        double per = Math.max(1, messages);
        double consumerMicros = ProcessCpu.micros(ProcessCpu.of(consumers) - consumersBefore) / per;
        double producerMicros = ProcessCpu.micros(ProcessCpu.of(producers) - producersBefore) / per;
        ServerActivity.Summary summary = activity.stop();
        double cursor = (cursorUpdates() - cursorBefore) * 1_000 / per;
        if (postgresBefore.isEmpty() || postgresAfter.isEmpty()) {
            return new Cost(OptionalDouble.empty(), OptionalDouble.empty(), consumerMicros, producerMicros, cursor,
                    summary);
        }
        double postgresMicros = ProcessCpu.micros(postgresAfter.getAsLong() - postgresBefore.getAsLong());
        return new Cost(OptionalDouble.of(postgresMicros / per), OptionalDouble.of(postgresMicros / 1e6 / seconds),
                consumerMicros, producerMicros, cursor, summary);
    }

    private long cursorUpdates() throws SQLException {
        return LedgerQueries.scalar(dataSource, "SELECT coalesce((SELECT n_tup_upd FROM pg_stat_user_tables WHERE"
                + " relid = to_regclass('" + cursorTable + "')), 0)");
    }

    /** Stops the sampler of a measurement that failed. */
    void abandon() throws Exception {
        activity.close();
    }

    static final String TABLE_TITLE = "Where the time goes: PostgreSQL CPU, client CPU and lock waits";

    /**
     * One row per measurement, each figure {@code median (min – max)} over its repetitions; the wait events are
     * summed over them.
     */
    static SeriesTable table(Map<String, List<Cost>> costs) {
        List<List<String>> rows = new ArrayList<>();
        costs.forEach((label, each) -> {
            List<ServerActivity.Summary> activity = each.stream().map(Cost::activity).toList();
            rows.add(List.of(label, optional(each, Cost::postgresMicros, "%,.1f"),
                    optional(each, Cost::postgresCores, "%.2f"), summary(each, Cost::consumerMicros, "%,.1f"),
                    summary(each, Cost::producerMicros, "%,.1f"), summary(each, Cost::cursorUpdates, "%,.1f"),
                    summary(activity, ServerActivity.Summary::lockSamples, "%,.0f") + " of "
                            + summary(activity, ServerActivity.Summary::samples, "%,.0f"),
                    summary(activity, ServerActivity.Summary::peakLockWaits, "%,.0f"),
                    ServerActivity.Summary.merged(activity).topEvents(5)));
        });
        return new SeriesTable(TABLE_TITLE, List.of("measurement", "PostgreSQL CPU µs/msg →", "PostgreSQL cores →",
                "consumer JVMs CPU µs/msg →", "producer JVM CPU µs/msg →", "cursor row updates /1,000 msg →",
                "samples with a lock wait →", "peak lock waiters →",
                "active backends by wait event (every sample)"), rows);
    }

    private static String optional(List<Cost> costs, Function<Cost, OptionalDouble> figure,
                                   String pattern) {
        if (costs.stream().anyMatch(c -> figure.apply(c).isEmpty())) {
            return "not readable";
        }
        return summary(costs, c -> figure.apply(c).getAsDouble(), pattern);
    }

    private static <T> String summary(List<T> values, ToDoubleFunction<T> figure, String pattern) {
        Summary s = Summary.of(values.stream().map(figure::applyAsDouble).toList());
        return String.format(Locale.ROOT, pattern + " (" + pattern + " – " + pattern + ")", s.median(), s.min(),
                s.max());
    }
}
