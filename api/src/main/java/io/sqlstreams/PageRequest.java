package io.sqlstreams;

/**
 * Which page of a listing ordered newest message first: at most {@code limit} entries (1 to {@link #MAX_LIMIT}),
 * all with a message id below {@code beforeId} (null for the first page). A limit outside the bounds or a
 * {@code beforeId} below 1 is SQL0152.
 */
public record PageRequest(int limit, Long beforeId) {
    /** The largest page a listing returns. */
    public static final int MAX_LIMIT = 1_000;

    /** The first page of at most {@code limit} entries. */
    public static PageRequest first(int limit) {
        return new PageRequest(limit, null);
    }

    /** The page after the one that returned {@code nextBeforeId}, of the same size. */
    public PageRequest after(long nextBeforeId) {
        return new PageRequest(limit, nextBeforeId);
    }
}
