package io.sqlstreams.bench;

import java.util.List;

/**
 * The raw-SQL ceiling of this machine, measured in every run before the scenario (BENCHMARKS.md, "The
 * baseline").
 *
 * @param insert100             (a) batch 100, one connection
 * @param insert1000            (a) batch 1000, one connection
 * @param insert1000TwoThreads  (a) batch 1000, two connections
 * @param logAndCursor          (b) the log + cursor loop
 */
record Baselines(Figure insert100, Figure insert1000, Figure insert1000TwoThreads, Figure logAndCursor) {

    static Baselines measure(InsertBaseline inserts, CursorBaseline cursor, Repetitions repetitions) throws Exception {
        return new Baselines(
                measure(inserts, InsertBaseline.BATCH_100, repetitions),
                measure(inserts, InsertBaseline.BATCH_1000, repetitions),
                measure(inserts, InsertBaseline.BATCH_1000_TWO_THREADS, repetitions),
                repetitions.measure(CursorBaseline.LABEL, cursor::measureOnce));
    }

    List<Figure> all() {
        return List.of(insert100, insert1000, insert1000TwoThreads, logAndCursor);
    }

    /** Whichever of the one- and two-connection batch-1000 figures has the higher median. */
    Figure bestInsert1000() {
        return insert1000TwoThreads.throughput().median() > insert1000.throughput().median()
                ? insert1000TwoThreads : insert1000;
    }

    private static Figure measure(InsertBaseline inserts, InsertBaseline.Shape shape, Repetitions repetitions)
            throws Exception {
        return repetitions.measure(shape.label(), () -> inserts.measureOnce(shape));
    }
}
