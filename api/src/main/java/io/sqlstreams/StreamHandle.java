package io.sqlstreams;

import java.util.List;
import java.util.Optional;

/**
 * A stream by name: no I/O until a verb is called, and every verb resolves the name when called.
 *
 * @param <T> the payload type, which must carry {@link SchemaVersion}; admin verbs ignore it
 */
public interface StreamHandle<T> {

    String name();

    Class<T> payloadType();

    /**
     * Declares the stream: creates the installation's tables when missing, then the stream and its table
     * family. Idempotent; a differing declaration replaces the stored one and logs SQL0061 with the
     * difference. The partition size cannot change (SQL0004).
     *
     * @throws InvalidNameException          (SQL0109) for a bad name; SQL0009 for the reserved
     *                                       {@code __system.} prefix
     * @throws InvalidConfigurationException (SQL0108) for a bad configuration
     */
    Stream register(StreamConfig config);

    /** {@link #register(StreamConfig)} with {@link StreamConfig#defaults()}. */
    default Stream register() {
        return register(StreamConfig.defaults());
    }

    /** The stream's row, or empty when no stream has this name. */
    Optional<Stream> get();

    /**
     * Renames the stream, keeping its id and data. This handle keeps its old name.
     *
     * @throws SqlStreamsException SQL0005 when absent, SQL0007 when the new name is taken
     */
    Stream rename(String newName);

    /**
     * Drops the stream, its messages and every consumer group on it. Needs
     * {@link ClientConfig#allowDestroy()} (SQL0008); without {@link DestroyOptions#force()} a stream that
     * holds messages is refused (SQL0006).
     */
    void destroy(DestroyOptions options);

    /**
     * Runs {@link #destroy}'s checks and deletes nothing: returns when a destroy with these options would go ahead
     * now, and throws what it would throw otherwise (SQL0008, SQL0005, SQL0006), so an operator can be asked to
     * confirm only a destroy that can happen.
     */
    void checkDestroy(DestroyOptions options);

    /**
     * For each payload version the stream still holds (in its messages or its compaction heads), lowest first: how
     * much of it is retained and which consumer groups still have it unread, retrying or dead. Empty for a stream
     * that holds nothing.
     *
     * @throws SqlStreamsException SQL0005 when absent
     */
    List<StreamVersionHealth> health();

    /**
     * For each consumer group of the stream, ordered by name: whether an open transaction that produced into the
     * stream holds back its fresh claims, and which (docs/engine.md, "The fence").
     *
     * @throws SqlStreamsException SQL0005 when absent
     */
    List<GroupFence> fences();

    /** The consumer groups registered on this stream, ordered by name. */
    List<Consumer> consumers();

    /** A handle on one message key of this stream. No I/O. */
    KeyHandle<T> key(String messageKey);

    /** A handle on the consumer group {@code name} of this stream. No I/O. */
    ConsumerHandle<T> consumer(String name);

    /** A handle for producing to this stream. No I/O. */
    ProducerHandle<T> producer();

    /**
     * The stream's janitor worker ({@code stream_janitor}): retention, sweeps and partitions ahead. Active on a new
     * stream. No I/O.
     */
    MaintenanceHandle janitor();

    /**
     * The stream's vacuum worker ({@code stream_vacuum}): {@code VACUUM (ANALYZE)} of its idempotency claims.
     * Suspended on a new stream. No I/O.
     */
    MaintenanceHandle vacuum();

    /** The stream's built-in metrics (partitions, compaction, workers without a live instance). No I/O. */
    ResourceMetricsHandle metrics();

    /**
     * The stream's alerts: {@code partition_count}, {@code compaction_read_cost}, {@code worker_liveness},
     * {@code fence_held}. No I/O.
     */
    AlertsHandle alerts();

    /**
     * Where the message {@code messageId} stands in each consumer group, or empty when the stream holds no such
     * message (never written, or removed by retention). SQL0005 for an unknown stream, SQL0152 for an id below 1.
     */
    Optional<MessageWhereabouts> locate(long messageId);

    /**
     * Where the newest {@code limit} (1 to 1,000) messages with message key {@code messageKey} stand, newest first.
     * SQL0152 for a bad limit or a key longer than 1,000 characters or holding a NUL character.
     */
    List<MessageWhereabouts> locateKey(String messageKey, int limit);
}
