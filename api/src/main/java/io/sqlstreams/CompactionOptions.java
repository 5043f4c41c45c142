package io.sqlstreams;

/**
 * Makes a produced message one version of its message key: the stream keeps a head per key, and
 * consumers are handed only current heads. The winner per key is the greatest
 * (schema version, rank, id): a higher payload version always wins, then the higher rank, then the
 * later message. Rank 0 means arrival order decides.
 *
 * @param enable whether the message takes part in compaction; requires a message key
 * @param rank   the version order within one payload version (a source row version, epoch micros, …);
 *               must be 0 when {@code enable} is false
 */
public record CompactionOptions(boolean enable, long rank) {

    /** Compaction in arrival order (rank 0). */
    public static CompactionOptions enabled() {
        return new CompactionOptions(true, 0);
    }

    /** Compaction with an explicit rank. */
    public static CompactionOptions withRank(long rank) {
        return new CompactionOptions(true, rank);
    }
}
