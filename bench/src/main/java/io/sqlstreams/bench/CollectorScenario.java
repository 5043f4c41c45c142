package io.sqlstreams.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.LongSummaryStatistics;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.SqlStreams;

/**
 * What one pass of the system's metrics collector costs over an installation of
 * {@value CollectorInstallation#STREAMS} streams × {@value CollectorInstallation#GROUPS} groups: milliseconds per
 * pass, the SQL statements it executes and the measurements it records, held against as many plain JDBC round
 * trips, measured in the same run.
 */
final class CollectorScenario implements Scenario {
    static final int MESSAGES = 200;
    static final int SMOKE_MESSAGES = 20;
    static final int PASSES = 20;
    static final int SMOKE_PASSES = 5;
    static final int WARMUP_PASSES = 5;

    static String collectorLabel() {
        return "collector pass, " + CollectorInstallation.STREAMS + " streams × " + CollectorInstallation.GROUPS
                + " groups (passes/s; ms per pass)";
    }

    static String roundTripsLabel() {
        return "raw JDBC: SELECT 1 round trips, as many as a pass's statements (passes/s; ms per pass)";
    }

    @Override
    public String name() {
        return "collector";
    }

    @Override
    public String title() {
        return "One pass of the metrics collector over " + CollectorInstallation.STREAMS + " streams × "
                + CollectorInstallation.GROUPS + " groups, against as many plain round trips";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        int messages = context.smoke() ? SMOKE_MESSAGES : MESSAGES;
        int passes = context.smoke() ? SMOKE_PASSES : PASSES;
        // quiet between passes: no manager to run a collector of its own, no listening connection
        ClientConfig config = ClientConfig.builder().schema(context.schema()).allowDestroy(true).disableManager(true)
                .disableWakeup(true).build();
        StatementCounter counter = new StatementCounter();
        try (SqlStreams client = SqlStreams.create(context.dataSource(), config);
             StandaloneEngine engine = StandaloneEngine.over(counter.wrap(context.dataSource()), config)) {
            List<String> notes = new ArrayList<>();
            notes.add(CollectorInstallation.create(client, context.dataSource(), messages, context.progress())
                    .describe());
            CollectorPasses collector = CollectorPasses.start(engine.engine(), counter, client, context.dataSource());
            CollectorPasses.PassCost pass = collector.onePass();
            notes.add(Warmup.run(context, "the collector's measurement cut to " + WARMUP_PASSES + " passes",
                    () -> collector.measure(WARMUP_PASSES)));
            RoundTrips roundTrips = new RoundTrips(context.dataSource(), pass.counts().statements());
            List<Figure> figures = context.repetitions().measurePaired(collectorLabel(),
                    () -> collector.measure(passes), roundTripsLabel(), () -> roundTrips.measure(passes));
            notes.addAll(notes(pass, collector, passes, figures.get(0), figures.get(1)));
            return new ScenarioResult(figures, List.of(new Comparison(figures.get(0), figures.get(1), "")), notes);
        }
    }

    private static List<String> notes(CollectorPasses.PassCost pass, CollectorPasses collector, int passes,
                                      Figure ours, Figure roundTrips) {
        StatementCounter.Counts counts = pass.counts();
        List<Double> ratios = new ArrayList<>();
        for (int k = 0; k < ours.samples().size(); k++) {
            ratios.add(ours.samples().get(k).values().get(Metric.P50)
                    / roundTrips.samples().get(k).values().get(Metric.P50));
        }
        Summary ratio = Summary.of(ratios);
        LongSummaryStatistics timed = collector.timedStatements();
        return List.of(
                String.format(Locale.ROOT, "One pass (probed after the first, which registers __system.metrics and"
                                + " the collector's producer) executes %,d statements in %,d committed transactions"
                                + " on %,d borrowed connections, and records %,d measurements on __system.metrics;"
                                + " %s.", counts.statements(), counts.commits(), counts.connections(),
                        pass.measurements(), timed.getMin() == timed.getMax()
                                ? "every timed pass executed as many statements"
                                : String.format(Locale.ROOT, "the timed passes executed %,d to %,d statements",
                                        timed.getMin(), timed.getMax())),
                String.format(Locale.ROOT, "Each repetition: one pass unmeasured, then %d timed one after another"
                        + " on one thread, by one MetricsCollector kept for the run (as the metrics_collector worker"
                        + " keeps its own), on an engine assembled from the extension's public classes over the"
                        + " harness's pool (a client keeps its engine private). Statements are counted by a"
                        + " java.lang.reflect.Proxy around that engine's data source, its connections and their"
                        + " statements: each execute, executeQuery, executeUpdate or executeBatch call is one; commits"
                        + " and connections are counted apart. The collector and the round trips alternate which"
                        + " runs first in each repetition.", passes),
                String.format(Locale.ROOT, "The round trips: %,d executions of one prepared SELECT 1 per pass on"
                        + " one auto-commit connection borrowed from the same pool, no library.", counts.statements()),
                String.format(Locale.ROOT, "A pass's p50 is %.1f× (%.1f× – %.1f×) the p50 of as many round trips,"
                        + " each repetition's collector p50 over its own round-trip p50.", ratio.median(), ratio.min(),
                        ratio.max()));
    }
}
