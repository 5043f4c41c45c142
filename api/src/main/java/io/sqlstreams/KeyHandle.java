package io.sqlstreams;

import java.sql.Connection;
import java.util.List;
import java.util.Optional;

/** One message key of a stream. No I/O until a verb is called. */
public interface KeyHandle<T> {

    String messageKey();

    /**
     * The key's current compaction head: the greatest (schema version, rank, id) produced with compaction.
     *
     * @throws SqlStreamsException SQL0066 when nothing compacted was produced under the key
     */
    StoredMessage<T> compactionHead();

    /**
     * Locks the key's compaction row inside the caller's transaction on {@code connection} (creating a
     * head-less row for a new key) and returns the current head, empty for a new key. The lock holds until
     * that transaction ends: read, decide the next version, produce it, commit. Lock several keys in a
     * consistent order.
     *
     * @throws SqlStreamsException SQL0132 when {@code connection} is in auto-commit mode
     */
    Optional<StoredMessage<T>> lockCompactionHead(Connection connection);

    /** Retained messages under the key, newest first, at most {@code limit} (which must be positive). */
    List<StoredMessage<T>> messages(int limit);
}
