package io.sqlstreams.bench;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageHandler;
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

        /** Offered and handled msg/s (from the producer's start to the last handled message) and e2e p50/p99/p99.9. */
        Map<Metric, Double> values(int rate) {
            Map<Metric, Double> values = new EnumMap<>(Metric.class);
            values.put(Metric.OFFERED, (double) rate);
            values.put(Metric.THROUGHPUT, log.count() / ((lastHandledNanos - sent.startNanos()) / 1e9));
            values.putAll(LatencyStats.of(log.pairs()[1]));
            return values;
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
        try (GroupSessions sessions = GroupSessions.start(clients, stream.name(), group, handler, consume, config)) {
            Pacer.Outcome sent;
            List<BacklogSampler.Point> backlog;
            try (Producer<BenchPayload> producer = stream.handle().producer().register();
                 BacklogSampler sampler = BacklogSampler.start(context.dataSource(), stream)) {
                sent = Pacer.run(group + "-" + rate, producer, callers, rate, total, GIVE_UP);
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
