package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;

/**
 * One group consuming a stream with one session while a {@link SteadyLoad} produces into it, in phases the
 * scenario runs one after the other ({@link #phase}), with the stream's tables read every period by a
 * {@link PeriodicSampler} and each reading printed as a progress line; {@link #finish} waits for every produced
 * message to be handled and checks the ledger.
 *
 * @param <R> what one reading of the tables yields
 */
final class SteadyRun<R> implements AutoCloseable {
    static final int MESSAGE_CONCURRENCY = SustainedScenario.MESSAGE_CONCURRENCY;
    /** The phase of a reading taken before the first phase began. */
    static final String BEFORE_FIRST = "starting";

    /** What a reading is taken with: the sampler's connection, the phase running and the messages handled so far. */
    @FunctionalInterface
    interface Reading<R> {
        R read(Connection connection, String phase, long handled) throws SQLException;
    }

    /** A finished run: its phases with the group's lag at each one's end, the readings and the ledger. */
    record Outcome<R>(List<SteadyLoad.Phase> phases, List<Long> lagsAtEnd, List<PeriodicSampler.Timed<R>> readings,
                      Pacer.Outcome produced, Ledger ledger, String counters) {

        /** Each phase's figure, labelled by {@code phaseLabel} from its name, then the whole run's. */
        List<Figure> figures(Function<String, String> phaseLabel, String wholeRunLabel, int rate) {
            List<Figure> figures = new ArrayList<>();
            for (int i = 0; i < phases.size(); i++) {
                figures.add(phaseFigure(i, phaseLabel.apply(phases.get(i).name()), rate));
            }
            figures.add(wholeRunFigure(wholeRunLabel, rate));
            return figures;
        }

        /** A phase's figure: offered and handled msg/s, e2e latency, the lag at its end; its ledger is the run's. */
        private Figure phaseFigure(int phase, String label, int rate) {
            SteadyLoad.Phase p = phases.get(phase);
            Map<Metric, Double> values = new EnumMap<>(Metric.class);
            values.put(Metric.OFFERED, (double) rate);
            values.put(Metric.THROUGHPUT, p.throughput());
            long[] latencies = SteadyLoad.latencies(p);
            if (latencies.length > 0) {
                values.putAll(LatencyStats.of(latencies));
            }
            values.put(Metric.LAG, (double) lagsAtEnd.get(phase));
            return new Figure(label, List.of(new Sample(values, Ledger.IN_ANOTHER_FIGURE)));
        }

        /** The whole run's figure: messages handled per second over every phase, with the run's ledger. */
        private Figure wholeRunFigure(String label, int rate) {
            double seconds = phases.stream().mapToDouble(SteadyLoad.Phase::seconds).sum();
            long handled = phases.stream().mapToLong(p -> p.log().count()).sum();
            return new Figure(label, List.of(new Sample(Map.of(Metric.OFFERED, (double) rate, Metric.THROUGHPUT,
                    handled / seconds), ledger)));
        }
    }

    private final BenchContext context;
    private final BenchStream stream;
    private final String group;
    private final int rate;
    private final Duration length;
    private final FamilyStats stats;
    private final SteadyLoad load;
    private final GroupSessions sessions;
    private final Producer<BenchPayload> producer;
    private final PeriodicSampler<R> sampler;
    private final List<Long> lagsAtEnd = new ArrayList<>();
    private long phaseEndNanos;

    private SteadyRun(BenchContext context, BenchStream stream, String group, int rate, Duration length,
                      SteadyLoad load, GroupSessions sessions, Duration period, Reading<R> reading,
                      Function<R, String> describe) {
        this.context = context;
        this.stream = stream;
        this.group = group;
        this.rate = rate;
        this.length = length;
        this.stats = new FamilyStats(context.schema(), stream.id());
        this.load = load;
        this.sessions = sessions;
        this.producer = stream.handle().producer().register();
        this.sampler = PeriodicSampler.start("bench-" + group + "-sampler", context.dataSource(), period,
                connection -> reading.read(connection, load.current() == null ? BEFORE_FIRST : load.current().name(),
                        load.handled()),
                timed -> context.progress().note(String.format(Locale.ROOT, "  t=%4.0fs %s",
                        timed.seconds(), describe.apply(timed.value()))));
    }

    /**
     * Starts one session of {@code group} on {@code stream} through {@code consumer} and the sampler; nothing is
     * produced before the first {@link #phase}.
     *
     * @param length the sum of every phase's length: how long the producer runs
     */
    static <R> SteadyRun<R> start(BenchContext context, SqlStreams consumer, BenchStream stream, String group,
                                  int rate, Duration length, Duration period, Reading<R> reading,
                                  Function<R, String> describe) throws InterruptedException {
        SteadyLoad load = new SteadyLoad(rate, MESSAGE_CONCURRENCY);
        GroupSessions sessions = GroupSessions.start(List.of(consumer), stream.name(), group, load.handler(),
                SustainedScenario.CONSUME);
        return new SteadyRun<>(context, stream, group, rate, length, load, sessions, period, reading, describe);
    }

    /** The stream's tables, for readings. */
    FamilyStats stats() {
        return stats;
    }

    /**
     * Runs the phase {@code name} for {@code phaseLength}: ends the one before (noting the group's lag), does
     * {@code atStart}, then waits the phase out. The first phase starts the producer.
     */
    void phase(String name, Duration phaseLength, Action atStart) throws Exception {
        if (load.current() == null) {
            load.begin(name);
            load.produce(group, producer, length);
            phaseEndNanos = System.nanoTime();
        } else {
            lagsAtEnd.add(lagNow());
            load.begin(name);
        }
        atStart.run();
        context.progress().note("phase " + name + " for " + phaseLength.toSeconds() + " s");
        phaseEndNanos += phaseLength.toNanos();
        long wait;
        while ((wait = phaseEndNanos - System.nanoTime()) > 0) {
            Thread.sleep(Math.min(1000, wait / 1_000_000 + 1));
            sessions.checkRunning();
        }
    }

    /** Something a phase does as it starts. */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    /**
     * Ends the last phase, waits for the producer and then for every acknowledged message to be handled, stops the
     * sampler and the session and checks the ledger: by the log's ids, or, when {@code retained} (the log drops
     * partitions while it runs), by the handled ids alone.
     */
    Outcome<R> finish(boolean retained) throws Exception {
        lagsAtEnd.add(lagNow());
        Pacer.Outcome produced = load.awaitProduced();
        List<SteadyLoad.Phase> phases = load.phases();
        load.begin("drain");
        long acknowledged = produced.acknowledged();
        boolean all = load.awaitHandled(acknowledged, Duration.ofSeconds(Math.max(60, acknowledged / 2_000)),
                sessions);
        List<PeriodicSampler.Timed<R>> readings = sampler.stop();
        producer.close();
        sessions.close();
        if (!all) {
            context.progress().note("only " + load.handled() + " of " + acknowledged + " messages were handled");
        }
        long[] handled = load.sortedHandledIds();
        Ledger ledger = retained ? DeliveryLedger.ofRetained(produced.sortedIds(), produced.duplicates(), handled)
                : DeliveryLedger.of(produced.sortedIds(), produced.duplicates(), stream.rows(), stream.storedIds(),
                        handled);
        String counters = sessions.describeCounters()
                + (produced.unsent() > 0 ? "; " + produced.unsent() + " messages unsent: the producer fell more"
                + " than " + SteadyLoad.GIVE_UP.toSeconds() + " s behind" : "");
        return new Outcome<>(phases, List.copyOf(lagsAtEnd), readings, produced, ledger, counters);
    }

    /** Stops the sampler, the producer and the session, when {@link #finish} did not. */
    @Override
    public void close() throws Exception {
        try {
            sampler.close();
        } finally {
            try {
                producer.close();
            } finally {
                sessions.close();
            }
        }
    }

    private long lagNow() throws SQLException {
        try (Connection connection = context.dataSource().getConnection()) {
            return stats.lag(connection, group);
        }
    }
}
