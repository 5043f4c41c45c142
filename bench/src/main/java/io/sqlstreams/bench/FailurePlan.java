package io.sqlstreams.bench;

import java.util.Arrays;
import java.util.stream.LongStream;

/**
 * Which messages of a {@code failure} run fail, by their payload's index k (0 … total − 1): every {@code 100 ÷
 * percent}-th fails its first run and then succeeds, and {@code poison} messages spread evenly over the run always
 * fail. A poison message is never one that fails once.
 */
final class FailurePlan {
    private final int percent;
    private final long[] poison;

    private FailurePlan(int percent, long[] poison) {
        this.percent = percent;
        this.poison = poison;
    }

    /**
     * @param percent 0, or a divisor of 100: the share of messages that fail their first run
     * @param poison  how many messages always fail
     * @param total   messages in the run
     */
    static FailurePlan of(int percent, int poison, long total) {
        if (percent < 0 || percent > 0 && 100 % percent != 0) {
            throw new IllegalArgumentException("a failing share of " + percent + " % is not 0 or a divisor of 100");
        }
        long count = Math.min(poison, total);
        return new FailurePlan(percent, LongStream.range(0, count).map(i -> (2 * i + 1) * total / (2 * count))
                .distinct().toArray());
    }

    int percent() {
        return percent;
    }

    boolean poison(long index) {
        return Arrays.binarySearch(poison, index) >= 0;
    }

    boolean failsFirstRun(long index) {
        return percent > 0 && index % (100 / percent) == 0 && !poison(index);
    }

    /** The poison indices, ascending. */
    long[] poisonIndices() {
        return poison.clone();
    }

    /** Messages among the first {@code total} that fail their first run only. */
    long failingFirstRuns(long total) {
        return LongStream.range(0, total).filter(this::failsFirstRun).count();
    }
}
