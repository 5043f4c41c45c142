package io.sqlstreams.engine.query;

/**
 * Partition {@code number} of a stream's log, covering ids {@code [low, high)} for the stream's partition size.
 */
public record LogPartition(long number, long low, long high) {

    public static LogPartition of(long number, long partitionSize) {
        return new LogPartition(number, number * partitionSize, (number + 1) * partitionSize);
    }

    /** The partition that holds message id {@code id}. */
    public static LogPartition holding(long id, long partitionSize) {
        return of(id / partitionSize, partitionSize);
    }

    /** The highest id the partition can hold. */
    public long lastId() {
        return high - 1;
    }

    public long size() {
        return high - low;
    }
}
