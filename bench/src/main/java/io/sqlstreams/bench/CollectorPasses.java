package io.sqlstreams.bench;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.LongSummaryStatistics;
import java.util.Map;

import javax.sql.DataSource;

import io.sqlstreams.SqlStreams;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.metrics.collector.MetricsCollector;

/**
 * Passes of one {@link MetricsCollector}, kept for the whole run as the system's {@code metrics_collector} worker
 * keeps its own, on an engine whose data source a {@link StatementCounter} counts.
 */
final class CollectorPasses {

    /**
     * What one pass costs.
     *
     * @param counts       statements executed, transactions committed and connections borrowed
     * @param measurements rows it added to the log of {@code __system.metrics}
     */
    record PassCost(StatementCounter.Counts counts, long measurements) {
    }

    private final MetricsCollector collector;
    private final StatementCounter counter;
    private final MetricsLog log;
    private final PassCost onePass;
    private final LongSummaryStatistics timedStatements = new LongSummaryStatistics();

    private CollectorPasses(MetricsCollector collector, StatementCounter counter, MetricsLog log, PassCost onePass) {
        this.collector = collector;
        this.counter = counter;
        this.log = log;
        this.onePass = onePass;
    }

    /**
     * A collector on {@code engine}, whose data source {@code counter} counts, after its first pass (which registers
     * {@code __system.metrics} and the collector's producer) and a second that is {@linkplain #onePass() probed}.
     */
    static CollectorPasses start(Engine engine, StatementCounter counter, SqlStreams client, DataSource dataSource)
            throws SQLException {
        MetricsCollector collector = new MetricsCollector(engine);
        collector.tick();
        MetricsLog log = MetricsLog.of(client, dataSource);
        long before = log.maxId();
        StatementCounter.Counts start = counter.now();
        collector.tick();
        PassCost cost = new PassCost(counter.now().since(start), log.rowsAbove(before).stored());
        return new CollectorPasses(collector, counter, log, cost);
    }

    /** What the probed pass cost. */
    PassCost onePass() {
        return onePass;
    }

    /** The fewest and the most statements of any timed pass so far. */
    LongSummaryStatistics timedStatements() {
        return timedStatements;
    }

    /**
     * One repetition: a pass unmeasured, then {@code passes} timed, each one's statements counted. Its ledger holds
     * the rows the timed passes added to the metrics log against {@code passes} × the probed pass's measurements:
     * every pass records the same series.
     */
    Sample measure(int passes) throws Exception {
        collector.tick();
        long before = log.maxId();
        LongList counted = new LongList(passes);
        Map<Metric, Double> values = PassTimes.measure(passes, () -> {
            StatementCounter.Counts start = counter.now();
            collector.tick();
            counted.add(counter.now().since(start).statements());
        });
        LedgerQueries.RowCount added = log.rowsAbove(before);
        long[] statements = counted.toArray();
        Arrays.stream(statements).forEach(timedStatements::accept);
        Arrays.sort(statements);
        values.put(Metric.STATEMENTS, (double) LatencyStats.rank(statements, 0.50));
        values.put(Metric.MEASUREMENTS, (double) added.distinct() / passes);
        return new Sample(values, Ledger.ofCounts(passes * onePass.measurements(), added));
    }
}
