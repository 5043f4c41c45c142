package io.sqlstreams.bench;

import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.SqlStreams;

/**
 * BENCHMARKS.md #1, the produce ceiling: {@code produce} (automatic batching) from 1, 4, 16 and 64 callers and
 * {@code produceBatch} of 100 and 1000 from one caller, each on a fresh stream, against baseline (a).
 */
final class ProduceScenario implements Scenario {
    static final List<Integer> CALLERS = List.of(1, 4, 16, 64);
    static final int SMALL_BATCH = 100;
    static final int LARGE_BATCH = 1000;

    static String produceLabel(int callers) {
        return "produce, " + callers + (callers == 1 ? " caller" : " callers") + " (msg/s)";
    }

    static String batchLabel(int size) {
        return "produceBatch, " + size + " per call, 1 caller (msg/s)";
    }

    @Override
    public String name() {
        return "produce";
    }

    @Override
    public String title() {
        return "Produce ceiling (BENCHMARKS.md #1)";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        SqlStreams client = SqlStreams.create(context.dataSource(),
                ClientConfig.builder().schema(context.schema()).allowDestroy(true).build());
        ProduceMeasurement measurement = new ProduceMeasurement(client, context.dataSource(), context.schema(),
                context.measurement());
        Repetitions repetitions = context.repetitions();
        Baselines baselines = context.baselines();
        List<Comparison> comparisons = new ArrayList<>();
        for (int callers : CALLERS) {
            comparisons.add(new Comparison(
                    repetitions.measure(produceLabel(callers), () -> measurement.produce(callers)),
                    baselines.insert100(), ""));
        }
        comparisons.add(new Comparison(
                repetitions.measure(batchLabel(SMALL_BATCH), () -> measurement.produceBatch(SMALL_BATCH)),
                baselines.insert100(), ""));
        comparisons.add(new Comparison(
                repetitions.measure(batchLabel(LARGE_BATCH), () -> measurement.produceBatch(LARGE_BATCH)),
                baselines.bestInsert1000(), "the better median of the one- and two-connection batch-1000 baselines"));
        return new ScenarioResult(comparisons.stream().map(Comparison::subject).toList(), comparisons);
    }
}
