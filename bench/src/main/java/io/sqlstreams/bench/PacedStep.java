package io.sqlstreams.bench;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;

/**
 * One step of the sustained shape (BENCHMARKS.md #3) on a fresh stream: one group, one session per client, and an
 * open-loop {@link Pacer} sending {@code total} messages at a rate through {@code produce()} with automatic batching
 * while the backlog is sampled every second; then the sessions run on until the step has settled (every message at
 * its outcome) or a deadline passed, and are closed. Closing the step destroys its stream.
 *
 * @param context what the scenario runs with
 * @param stream  the step's fresh stream
 * @param group   the group consuming it, named as the kind of step
 * @param config  the group's declaration
 */
record PacedStep(BenchContext context, BenchStream stream, String group, ConsumerConfig config)
        implements AutoCloseable {
    /** A producer this far behind its schedule gives up; the step then counts the rest as unsent. */
    static final Duration GIVE_UP = Duration.ofSeconds(10);

    /** Whether every message the producer was acknowledged has reached its outcome, waited for at most a slice. */
    @FunctionalInterface
    interface Settled {
        boolean await(Pacer.Outcome sent, Duration slice) throws Exception;
    }

    /**
     * A step that ran: what was sent, the backlog samples, what the handlers recorded (each id with its end-to-end
     * latency in microseconds), when the last one was handled, whether the step settled, the final counters.
     */
    record Outcome(Pacer.Outcome sent, List<BacklogSampler.Point> backlog, HandledLog log, long lastHandledNanos,
                   boolean settled, String counters, List<String> failures) {

        /**
         * Offered and handled msg/s (from the producer's start to the last handled message), e2e p50/p99/p99.9, and
         * e2e split: the producer's lag (scheduled send → produce() returned) and commit → handler entry.
         */
        Map<Metric, Double> values(int rate) {
            Map<Metric, Double> values = new EnumMap<>(Metric.class);
            values.put(Metric.OFFERED, (double) rate);
            values.put(Metric.THROUGHPUT, log.count() / ((lastHandledNanos - sent.startNanos()) / 1e9));
            long[][] pairs = log.pairs();
            values.putAll(LatencyStats.of(pairs[1]));
            Map<Long, Long> lags = new HashMap<>();
            LongList allLags = new LongList(pairs[0].length);
            for (Pacer.SentLog caller : sent.logs()) {
                long[] ids = caller.ids.toArray();
                long[] lag = caller.lagMicros.toArray();
                for (int i = 0; i < ids.length; i++) {
                    lags.put(ids[i], lag[i]);
                    allLags.add(lag[i]);
                }
            }
            LongList handoffs = new LongList(pairs[0].length);
            for (int i = 0; i < pairs[0].length; i++) {
                Long lag = lags.get(pairs[0][i]);
                if (lag != null) {
                    handoffs.add(pairs[1][i] - lag);
                }
            }
            putQuantiles(values, allLags.toArray(), Metric.PRODUCER_LAG_P50, Metric.PRODUCER_LAG_P99);
            putQuantiles(values, handoffs.toArray(), Metric.COMMIT_TO_HANDLER_P50, Metric.COMMIT_TO_HANDLER_P99);
            return values;
        }

        private static void putQuantiles(Map<Metric, Double> values, long[] micros, Metric p50, Metric p99) {
            if (micros.length > 0) {
                Map<Metric, Double> stats = LatencyStats.of(micros);
                values.put(p50, stats.get(Metric.P50));
                values.put(p99, stats.get(Metric.P99));
            }
        }
    }

    /** Registers a fresh stream {@code bench.<kind>.<n>} and declares the group {@code kind} on it. */
    static PacedStep register(BenchContext context, SqlStreams admin, String kind, ConsumerConfig config) {
        BenchStream stream = BenchStream.register(admin, context.dataSource(), context.schema(), kind);
        GroupSessions.declare(admin, stream.name(), kind, config);
        return new PacedStep(context, stream, kind, config);
    }

    /**
     * Runs the step: one session per client with {@code handler}, which records into {@code log}; {@code total}
     * messages at {@code rate} from {@code callers} threads; then waits for {@code settled}.
     */
    Outcome run(List<SqlStreams> clients, MessageHandler<BenchPayload> handler, HandledLog log, ConsumeOptions consume,
                int rate, long total, int callers, Settled settled) throws Exception {
        return run(clients, handler, log, consume, rate, total, callers, k -> ProduceOptions.none(), settled);
    }

    /** {@link #run}, payload {@code k} produced with {@code options.apply(k)}. */
    Outcome run(List<SqlStreams> clients, MessageHandler<BenchPayload> handler, HandledLog log, ConsumeOptions consume,
                int rate, long total, int callers, LongFunction<ProduceOptions> options, Settled settled)
            throws Exception {
        try (GroupSessions sessions = GroupSessions.start(clients, stream.name(), group, handler, consume, config)) {
            Pacer.Outcome sent;
            List<BacklogSampler.Point> backlog;
            try (Producer<BenchPayload> producer = stream.handle().producer().register();
                 BacklogSampler sampler = BacklogSampler.start(context.dataSource(), stream)) {
                sent = Pacer.run(group + "-" + rate, producer, callers, rate, total, GIVE_UP, options);
                backlog = sampler.stop();
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(Math.max(60, sent.acknowledged() / 2_000)).toNanos();
            boolean all;
            while (!(all = settled.await(sent, Duration.ofSeconds(1))) && System.nanoTime() < deadline) {
                sessions.checkRunning();
            }
            long lastHandled = log.lastNanos();
            sessions.close();
            return new Outcome(sent, backlog, log, lastHandled, all, sessions.describeCounters(), sessions.failures());
        }
    }

    @Override
    public void close() {
        stream.close();
    }
}
